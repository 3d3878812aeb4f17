/**
 * The host: the extensions, their state, and the servers built from them.
 *
 * Data path: selection → (fire activation events; maybe wake) → active
 * toolsets → cache key → blueprint → `createServer()` per connection. A cache
 * hit resolves no extension and converts no schema.
 *
 * This file is the public face (`McpHost`, `buildHost`); the work is in
 * `hostCache.ts` (cache policy), `assembleBlueprint.ts` (blueprint assembly),
 * `collisions.ts`, `hostReport.ts` (describe/report), `builtServer.ts` and
 * `sdk/` (minting SDK servers).
 */
import { assembleBlueprint } from './build/assembleBlueprint.js';
import { builtServerOf, withUnknown, type BuiltServer, type HostBuiltServer, type Minter } from './build/builtServer.js';
import { ChangeFeed, type HostChangeListener } from './changes.js';
import { ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';
import type { ExtensionInput } from '../contract/extension.js';
import { blueprintKey, HostCache, tenantKey } from './hostCache.js';
import type { CacheEntry } from './build/cacheTypes.js';
import { toolFilterOf } from '../selection/toolFilter.js';
import { viewOf } from './build/toolView.js';
import { HOST_OPTION_KEYS, readDeniedOnce, withoutDenied, type BuildOptions, type DescribeOptions, type HostOptions } from './hostOptions.js';
import { assertKnownKeys } from '../kernel/optionKeys.js';
import { describeFrom, reportFrom, type HostDescription, type HostReport } from './hostReport.js';
import { createListToolsetsTool, LIST_SERVER_TOOLSETS } from './listToolsets.js';
import { createDynamicToolsetTools } from './dynamicToolsets.js';
import type { TokenCounter } from '../contract/tokens.js';
import { createStderrLogger, type Logger } from '../kernel/logger.js';
import { ProblemLog, type Problem } from '../kernel/problems.js';
import { createRequestStateSeal, type RequestStateSeal } from './mint/requestState.js';
import { Registry, type ExtensionRecord, type RegistryContext } from './registry/registry.js';
import { offeringFor, resolveOfferings, selectOfferings, type Offering } from './build/resolve.js';
import { mintServer, mintServerNow, type MintBounds, type MintOptions } from './mint/mint.js';
import type { TaskRuntime } from './mint/tasks.js';
import { requestTelemetry, type RequestTelemetry } from '../telemetry/requestTelemetry.js';
import { Subscriptions } from './mint/subscriptions.js';
import { activationKey, activeToolsets, EMPTY_SELECTION, namesInSelection, onToolset, unknownNames, type Selection } from '../selection/selection.js';
import { createStats, type HostStats, type HostUsage } from '../kernel/stats.js';
import { serveTool, type Blueprint, type ServedTool, type ServeToolOptions } from './build/blueprint.js';
import { isTimeLimit } from '../kernel/timeLimit.js';
import type { ToolSpec } from '../contract/tool.js';
import { composeInstructions, deniedToolsets, type Toolset } from '../contract/toolset.js';
import { HOST_VERSION } from '../kernel/version.js';
import { BUILT_BLUEPRINT, HOST_TASKS, HOST_BUILD_NOW, HOST_CACHE_SIZES, HOST_TOKEN_COUNTER, HOST_NOTIFY_SUBSCRIBED_SESSIONS, HOST_REQUEST_TELEMETRY, HOST_STARTUP_PROBLEMS, HOST_STATS, HOST_USAGE } from './internals.js';

export type { HostOptions, BuildOptions, DescribeOptions } from './hostOptions.js';
export type { BuiltServer } from './build/builtServer.js';
export type { HostDescription, HostReport, ExtensionStatus } from './hostReport.js';

/** The host. Make one with {@link buildHost}. */
export class McpHost {
  /** Increments whenever cached blueprints are dropped. */
  get revision(): number {
    return this._revision;
  }
  readonly name: string;
  readonly version: string;
  readonly logger: Logger;
  /** @internal This host's counters of expensive operations, for structural tests (keyed by a symbol no entry point exports: `internals.ts`). */
  readonly [HOST_STATS]: HostStats = createStats();
  /** @internal How the host is used (selections served, cache hits), for metrics. */
  readonly [HOST_USAGE]: HostUsage = { selections: 0, blueprintHits: 0 };

  private _revision = 0;
  private started = false;
  private readonly options: HostOptions;
  private readonly problems = new ProblemLog();
  private readonly registry: Registry;
  private readonly cache: HostCache;
  /**
   * What the last build without a denied toolset or a tool filter served, and
   * what decided it: a request with the same selection object (the HTTP app
   * keeps one per URL) gets it again while the declared toolsets are the same
   * list and its blueprint is still the cache's newest entry — no sets of
   * active and unknown names made, no key built, nothing reordered.
   */
  private lastBuilt: { readonly selection: Selection; readonly declared: Toolset[]; readonly tenant: string | undefined; readonly readOnly: boolean; readonly key: string; readonly entry: CacheEntry; readonly built: HostBuiltServer } | undefined;
  private readonly subscriptions = new Subscriptions();
  private readonly requestState: RequestStateSeal;
  private readonly telemetry: RequestTelemetry | undefined;
  private readonly changes: ChangeFeed;
  private readonly listTool: ServedTool;
  private readonly dynamicTools: ServedTool[];
  /** @internal The tokenizer `list_available_toolsets` counts with (the HTTP app's `tokenCounter`); none: no token figures. */
  [HOST_TOKEN_COUNTER]: TokenCounter | undefined;
  /** @internal The tasks engine of the HTTP app serving this host (2026-07-28 tasks extension); none: no tasks. */
  [HOST_TASKS]: TaskRuntime | undefined;

  constructor(options: HostOptions = {}) {
    assertKnownKeys(options, HOST_OPTION_KEYS, 'buildHost');
    this.options = options;
    this.name = options.name ?? 'reactor-mcp-server';
    this.version = options.version ?? HOST_VERSION;
    this.logger = options.logger ?? createStderrLogger('warn', { name: this.name });
    this.requestState = createRequestStateSeal({ key: options.requestStateKey, logger: this.logger });
    this.telemetry = requestTelemetry(options.telemetry);
    this.telemetry?.observeUsage(() => ({ selections: this[HOST_USAGE].selections, blueprints: this[HOST_STATS].blueprints, cacheHits: this[HOST_USAGE].blueprintHits }));
    this.changes = new ChangeFeed((error) => this.logger.error({}, `a host change listener threw: ${errorMessage(error)}`));
    this.cache = new HostCache(options.maxCachedSelections ?? 64);
    this.registry = new Registry({
      logger: this.logger,
      problems: this.problems,
      onStartTimeoutMs: options.onStartTimeoutMs ?? 30_000,
      onStopTimeoutMs: options.onStopTimeoutMs ?? 10_000,
      changed: () => this.forgetBuilt(),
      isStarted: () => this.started,
      ...(this.telemetry ? { traceWake: traceWakeWith(this.telemetry) } : {}),
    });
    this.listTool = createListToolsetsTool(
      (selection, tenant, granted, readOnly) => this.describe(selection, { tenant, readOnly, denied: deniedToolsets(this.declaredToolsets({ tenant }), granted).keys() }),
      this.serveOptions(),
    );
    this.dynamicTools = createDynamicToolsetTools(
      {
        declared: (tenant) => this.declaredToolsets({ tenant }),
        offered: (toolset, tenant) => this.servedIn(toolset, tenant),
        held: (toolset, tenant) => this.registry.visible(tenant).some((r) => r.state === 'held' && r.declaredToolsets.some((t) => t.name === toolset)),
        wake: async (toolset, tenant) => {
          await this.registry.fire(onToolset(toolset), tenant);
        },
        build: async (selection, options) => (await this[HOST_BUILD_NOW](selection, options))[BUILT_BLUEPRINT],
        problems: () => this.problems.list(),
        tokenCounter: () => this[HOST_TOKEN_COUNTER],
      },
      this.serveOptions(),
    );
  }

  /** The served tools of one toolset from the awake extensions (for the dynamic-toolset tools); a tool that cannot be served is left out. */
  private servedIn(toolset: string, tenant: string | undefined): ServedTool[] {
    const active = new Set([toolset]);
    return selectOfferings(this.offerings(tenant), active).served.flatMap((o) => {
      const offering = offeringFor(o, active, this.problems, this.logger);
      if (!offering) return [];
      try {
        return [this.cache.servedTool(offering, () => this.serveOffering(offering))];
      } catch {
        return [];
      }
    });
  }

  /** Serves an offered tool, remembering which tool extensions made it (for spans). */
  private serveOffering(offering: Offering): ServedTool {
    const served = serveTool(offering.spec, offering.extension, this.serveOptions());
    return offering.extendedBy.length > 0 ? { ...served, extendedBy: offering.extendedBy } : served;
  }

  private serveOptions(): ServeToolOptions {
    const limit = this.options.toolTimeoutMs ?? 120_000;
    return { logger: this.logger, problems: this.problems, toolTimeoutMs: isTimeLimit(limit) ? limit : undefined, stats: this[HOST_STATS] };
  }

  /** Registers more extensions (objects or deferred entries); drops the cache. */
  async add(...extensions: ExtensionInput[]): Promise<void> {
    await this.registry.register(extensions);
    if (this.started) await this.registry.startAll();
    this.forgetBuilt();
  }

  /** Serves a disabled extension again; drops the cache. Listeners of {@link onChange} hear `toggled`, then `surface`. */
  async enable(name: string): Promise<void> {
    const record = this.require(name);
    record.disabled = false;
    this.changes.emit({ kind: 'toggled', name, enabled: true });
    if (this.started && record.state === 'active') await this.registry.startAll();
    this.forgetBuilt();
  }

  /** Stops serving an extension (its state is kept); drops the cache. Listeners of {@link onChange} hear `toggled`, then `surface`. */
  async disable(name: string): Promise<void> {
    this.require(name).disabled = true;
    this.changes.emit({ kind: 'toggled', name, enabled: false });
    this.forgetBuilt();
    return Promise.resolve();
  }

  private require(name: string): ExtensionRecord {
    const record = this.registry.get(name);
    if (!record) {
      throw new ReactorError(ErrorCodes.EXTENSION_NOT_FOUND, {
        subject: `extension "${name}"`,
        problem: 'is not registered',
        expected: `one of ${this.registry.records.map((r) => `"${r.name}"`).join(', ') || '(none registered)'}`,
        hint: 'check the name in the extension\'s manifest',
      });
    }
    return record;
  }

  /** Runs `onStart` of every active extension, dependencies first. */
  async start(): Promise<void> {
    this.started = true;
    await this.registry.startAll();
    this.forgetBuilt();
  }

  /** Runs `onStop` of every started extension, in reverse order. */
  async stop(): Promise<void> {
    this.started = false;
    await this.registry.stopAll();
  }

  /**
   * Drops every cached blueprint and increments `revision`. Open sessions keep
   * theirs. Reports a `surface` change to {@link onChange} listeners (every
   * `add`, `enable`, `disable` and wake comes through here).
   */
  forgetBuilt(): void {
    this.cache.forget();
    this._revision++;
    this.changes.emit({ kind: 'surface' });
  }

  /**
   * Calls `listener` on every change: `surface` when what a selection serves
   * may differ (the HTTP app then tells `subscriptions/listen` streams the
   * tools, prompts and resources lists changed), `resource_updated` from
   * {@link notifyResourceUpdated}. Returns the unsubscribe.
   */
  onChange(listener: HostChangeListener): () => void {
    return this.changes.watch(listener);
  }

  /**
   * Fires an activation event (e.g. `onToolset:benchmarks`) for the extensions a
   * tenant sees; drops the cache if anything woke or stood down.
   */
  async emit(event: string, options: BuildOptions = {}): Promise<boolean> {
    return await this.registry.fire(event, options.tenant);
  }

  /** Every toolset once (first declaration wins), held extensions included, disabled ones excluded. */
  declaredToolsets(options: BuildOptions = {}): Toolset[] {
    return this.cache.declared.getOrCreate(tenantKey(options.tenant), () => {
      const seen = new Map<string, Toolset>();
      for (const record of this.registry.visible(options.tenant)) {
        for (const toolset of record.declaredToolsets) if (!seen.has(toolset.name)) seen.set(toolset.name, toolset);
      }
      return [...seen.values()];
    });
  }

  /** The toolsets a selection turns on (no events fired). */
  activeFor(selection: Selection = EMPTY_SELECTION, options: BuildOptions = {}): ReadonlySet<string> {
    return withoutDenied(activeToolsets(this.declaredToolsets(options), selection), options.denied);
  }

  /** The server instructions for a set of active toolsets. */
  instructionsFor(active: Iterable<string>, options: BuildOptions = {}): string {
    return composeInstructions(this.options.instructions, this.declaredToolsets(options), new Set(active));
  }

  /**
   * The tools of the extensions awake now — extensions applied, `toolset`
   * filled in, collisions and failed tools left out — in the given toolsets
   * (default: all). Fires no events.
   */
  offeredTools(toolsets?: Iterable<string>, options: BuildOptions = {}): Array<ToolSpec<Record<string, unknown>> & { toolset: string }> {
    const active = toolsets === undefined ? undefined : new Set(toolsets);
    const served = selectOfferings(this.offerings(options.tenant), active).served;
    return (active === undefined ? served : served.flatMap((o) => offeringFor(o, active, this.problems, this.logger) ?? [])).map((o) => o.spec);
  }

  private offerings(tenant: string | undefined): Offering[] {
    return this.cache.offerings.getOrCreate(tenantKey(tenant), () => resolveOfferings(this.registry.active(tenant), this.problems, this.logger, this[HOST_STATS]));
  }

  /** Fires `onToolset:<name>` for what a selection names and what will be active; only where someone waits. */
  private async fireFor(selection: Selection, options: BuildOptions, listened = this.registry.listenedEvents()): Promise<void> {
    if (listened.size === 0) return;
    // A denied toolset wakes nothing: its extension's code would run for a caller who may not have it.
    const names = withoutDenied(new Set([...namesInSelection(selection), ...this.activeFor(selection, options)]), options.denied);
    for (const name of names) {
      const event = onToolset(name);
      if (listened.has(event)) await this.registry.fire(event, options.tenant);
    }
  }

  /**
   * Builds (or returns from cache) the server for a selection. Fires the
   * activation events of the names it uses and the toolsets it turns on first.
   */
  async build(selection: Selection = EMPTY_SELECTION, buildOptions: BuildOptions = {}): Promise<BuiltServer> {
    return this[HOST_BUILD_NOW](selection, buildOptions);
  }

  /**
   * @internal {@link build}, answered at once when no extension waits on the
   * selection's activation events (nearly every request): no promise, and
   * no turn of the microtask queue, for a caller that checks (the fast path).
   * A selection that wakes an extension is answered once it woke.
   */
  [HOST_BUILD_NOW](selection: Selection = EMPTY_SELECTION, buildOptions: BuildOptions = {}): HostBuiltServer | Promise<HostBuiltServer> {
    const options = readDeniedOnce(buildOptions);
    this[HOST_USAGE].selections++;
    // Asked without making the set of events: nearly every host has no extension waiting on one.
    if (this.registry.listensToAny()) return this.fireFor(selection, options).then(() => this.builtFor(selection, options));
    return this.builtFor(selection, options);
  }

  /** The built server for a selection whose activation events have fired. */
  private builtFor(selection: Selection, options: BuildOptions): HostBuiltServer {
    const tenant = options.tenant;
    const declared = this.declaredToolsets({ tenant });
    const readOnly = options.readOnly === true;
    const nothingDenied = options.denied === undefined || (Array.isArray(options.denied) && options.denied.length === 0);
    const last = this.lastBuilt;
    // The same selection object as the last build, nothing changed since: its answer again, without working it out.
    if (last !== undefined && nothingDenied && last.selection === selection && last.declared === declared && last.tenant === tenant && last.readOnly === readOnly && this.cache.blueprints.holdsNewest(last.key, last.entry)) {
      this[HOST_USAGE].blueprintHits++;
      return last.built;
    }
    const dynamic = selection.dynamic === true;
    const active = withoutDenied(activeToolsets(declared, selection), options.denied);
    const activation = activationKey(active);
    const key = cacheKeyOf(activation, tenant, dynamic);
    const entry = this.entryAt(key, activation, active, tenant, dynamic);
    let unknown = unknownNames(declared, selection);
    const filter = toolFilterOf(selection, readOnly);
    // A tool filter serves a narrowed view of the blueprint: no new blueprint, nothing converted.
    const view = filter ? viewOf(entry, filter, this[HOST_STATS]) : undefined;
    if (view) unknown = union(unknown, view.unknownTools);
    const served: { blueprint: Blueprint; built?: HostBuiltServer } = view ?? entry;
    const built = (served.built ??= builtServerOf(served.blueprint, unknown, selection, this.minterFor(served.blueprint)));
    const answer = sameSet(built.unknown, unknown) ? built : withUnknown(built, unknown, selection);
    this.lastBuilt = nothingDenied && !filter ? { selection, declared, tenant, readOnly, key, entry, built: answer } : undefined;
    return answer;
  }

  private minterFor(blueprint: Blueprint): Minter {
    const options: MintOptions = {
      serverName: this.name,
      serverVersion: this.version,
      serverFactory: this.options.serverFactory,
      onServerTimeoutMs: this.options.onServerTimeoutMs ?? 5_000,
      logger: this.logger,
      problems: this.problems,
      subscriptions: this.subscriptions,
      stats: this[HOST_STATS],
      requestState: this.requestState,
      telemetry: this.telemetry,
      tasks: () => this[HOST_TASKS],
    };
    return {
      now: (selection: Selection) => mintServerNow(blueprint, selection, options).server,
      mint: (selection: Selection, bounds?: MintBounds) => mintServer(blueprint, selection, options, bounds),
    };
  }

  private entryFor(active: ReadonlySet<string>, tenant: string | undefined, dynamic = false): CacheEntry {
    const key = activationKey(active);
    return this.entryAt(cacheKeyOf(key, tenant, dynamic), key, active, tenant, dynamic);
  }

  /** The blueprint cache's entry at `cacheKey` (`cacheKeyOf(key, tenant, dynamic)`), assembled on a miss. */
  private entryAt(cacheKey: string, key: string, active: ReadonlySet<string>, tenant: string | undefined, dynamic: boolean): CacheEntry {
    let built = false;
    const entry = this.cache.blueprints.getOrCreate(cacheKey, () => {
      built = true;
      return assembleBlueprint({
        key,
        tenant,
        revision: this._revision,
        active,
        instructions: this.instructionsFor(active, { tenant }),
        offerings: this.offerings(tenant),
        records: this.registry.active(tenant),
        listTool: this.options.toolsetsTool === true ? this.listTool : undefined,
        dynamicTools: dynamic ? this.dynamicTools : undefined,
        serve: (offering) => this.cache.servedTool(offering, () => this.serveOffering(offering)),
        problems: this.problems,
        logger: this.logger,
        stats: this[HOST_STATS],
      });
    });
    if (!built) this[HOST_USAGE].blueprintHits++;
    return entry;
  }

  /**
   * What a connection with this selection would get (`GET /toolsets`). Makes no
   * SDK server; may wake the extensions the selection names.
   */
  async describe(selection: Selection = EMPTY_SELECTION, describeOptions: DescribeOptions = {}): Promise<HostDescription> {
    const options = readDeniedOnce(describeOptions);
    const tenant = options.tenant;
    await this.fireFor(selection, options);
    const declared = this.declaredToolsets({ tenant });
    const active = withoutDenied(activeToolsets(declared, selection), options.denied);
    const entry = this.entryFor(active, tenant, selection.dynamic === true);
    const filter = toolFilterOf(selection, options.readOnly === true);
    return describeFrom({
      declared,
      active,
      unknown: unknownNames(declared, selection),
      entry,
      view: filter ? viewOf(entry, filter, this[HOST_STATS]) : undefined,
      hostListTool: entry.blueprint.toolIndex.get(LIST_SERVER_TOOLSETS) === this.listTool ? LIST_SERVER_TOOLSETS : undefined,
      activeRecords: this.registry.active(tenant),
      denied: options.denied,
      problems: this.problems.list(),
      tokenCounter: describeOptions.tokenCounter,
    });
  }

  /** Every extension's status and every problem the host contained. */
  report(): HostReport {
    return reportFrom(this, this.registry.records, this.problems.list());
  }

  /**
   * Tells every 2025 session subscribed to `uri` that it changed, and
   * {@link onChange} listeners (the HTTP app's `subscriptions/listen` streams
   * of 2026-07-28 clients). Returns how many sessions were told.
   */
  async notifyResourceUpdated(uri: string): Promise<number> {
    this.changes.emit({ kind: 'resource_updated', uri });
    return await this.subscriptions.notify(uri);
  }

  /**
   * @internal Tells this process's 2025 sessions subscribed to `uri`, and
   * nothing else: for a change another replica announced (its own
   * {@link notifyResourceUpdated} already told the listen streams).
   */
  async [HOST_NOTIFY_SUBSCRIBED_SESSIONS](uri: string): Promise<number> {
    return await this.subscriptions.notify(uri);
  }

  /** @internal The host's request telemetry (its `telemetry` option), for the HTTP app's session metric; undefined when off. */
  [HOST_REQUEST_TELEMETRY](): RequestTelemetry | undefined {
    return this.telemetry;
  }

  /** @internal How many entries each of the host's bounded caches holds (for the memory tests). */
  [HOST_CACHE_SIZES](): Record<string, number> {
    return this.cache.sizes();
  }

  /**
   * @internal For `strict`: resolve every awake extension's tools now (tool
   * extensions applied, schemas converted) for each tenant a manifest names and
   * for none, so failures that would otherwise surface at the first request count
   * as start-up problems. Returns every problem found so far.
   */
  [HOST_STARTUP_PROBLEMS](): Problem[] {
    const tenants = new Set<string | undefined>([undefined, ...this.registry.records.flatMap((r) => r.manifest.tenants ?? [])]);
    for (const tenant of tenants) {
      for (const offering of this.offerings(tenant)) {
        if (this.cache.hasServedTool(offering)) continue;
        try {
          this.cache.servedTool(offering, () => this.serveOffering(offering));
        } catch (error) {
          this.problems.reportError(this.logger, error, ErrorCodes.TOOL_INVALID, 'build', { extension: offering.extension, subject: offering.spec.name }, { fields: { tool: offering.spec.name } });
        }
      }
    }
    const failures = new Set<string>([ErrorCodes.TOOL_EXTENSION_FAILED, ErrorCodes.TOOL_INVALID]);
    return this.problems.list((p) => p.phase === 'startup' || p.phase === 'activation' || (p.phase === 'build' && failures.has(p.code)));
  }
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));
/** The blueprint cache's key for an activation key: a dynamic blueprint serves the three dynamic-toolset tools too, so it has its own entry of the one bounded cache. */
const cacheKeyOf = (key: string, tenant: string | undefined, dynamic: boolean): string => blueprintKey(tenant, dynamic ? `${key}\u0000dynamic` : key);

const union = (a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> => (b.size === 0 ? new Set(a) : new Set([...a, ...b]));

/**
 * Registers the extensions (objects or entries from `loadExtensions`), starts
 * the host, and returns it. With `strict`, throws one error listing every
 * problem found at start-up.
 */
export async function buildHost(extensions: readonly ExtensionInput[], options: HostOptions = {}): Promise<McpHost> {
  const host = new McpHost(options);
  await host.add(...extensions);
  await host.start();
  const problems = options.strict === true ? host[HOST_STARTUP_PROBLEMS]() : [];
  const summary = host.report();
  host.logger.info(
    { extensions: summary.extensions.map((e) => `${e.name}@${e.version} (${e.state})`), problems: summary.problems.length },
    `host "${host.name}" started with ${summary.extensions.length} extension(s)`,
  );
  if (options.strict === true && problems.length > 0) {
    await host.stop();
    throw new ReactorError(ErrorCodes.STARTUP_FAILED, {
      subject: `host "${host.name}"`,
      problem: `${problems.length} problem(s) at start-up:\n${problems.map((p) => `  - [${p.code}] ${p.message}`).join('\n')}`,
      hint: 'fix each problem, or drop strict: true to serve around them',
    });
  }
  return host;
}

/** A wake as an INTERNAL span `reactor.activate {extension}` (the import and `onStart` of a held extension). */
function traceWakeWith(telemetry: RequestTelemetry): NonNullable<RegistryContext['traceWake']> {
  return (extension, wake, failure) => telemetry.internal(`reactor.activate ${extension}`, { 'reactor.extension': extension }, wake, failure);
}
