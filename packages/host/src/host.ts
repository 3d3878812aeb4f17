/**
 * The host: the extensions, their state, and the servers built from them.
 *
 * Data path: selection → (fire activation events; maybe wake) → active
 * toolsets → cache key → blueprint → `createServer()` per connection. A cache
 * hit resolves no extension and converts no schema.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { ErrorCodes, ReactorError } from './errors.js';
import type { ExtensionInput } from './extension.js';
import { createStderrLogger, type Logger } from './logger.js';
import { mintServer, Subscriptions, type ServerFactory } from './mint.js';
import { ProblemLog, type Problem } from './problems.js';
import { Registry, type ExtensionRecord, type ExtensionState } from './registry.js';
import { orphanToolExtensions, resolveOfferings, selectOfferings, type Conflict, type Offering } from './resolve.js';
import { activationKey, activeToolsets, compareCodePoints, EMPTY_SELECTION, namesInSelection, onToolset, unknownNames, type Selection } from './selection.js';
import type { PromptSpec, ResourceSpec } from './resource.js';
import { stats } from './stats.js';
import type { ToolSpec } from './tool.js';
import { isTimeLimit } from './timeLimit.js';
import { composeInstructions, deniedToolsets, describeToolset, type DescribedToolset, type Toolset } from './toolset.js';
import { renderToolList, serveTool, type Blueprint, type ServedTool } from './blueprint.js';
import { createListToolsetsTool, LIST_SERVER_TOOLSETS } from './listToolsets.js';
import { HOST_VERSION } from './version.js';

/** Options of {@link buildHost}. */
export interface HostOptions {
  /** Server name clients see. Default `reactor-mcp-server`. */
  readonly name?: string;
  /** Server version clients see. Default: this host's version. */
  readonly version?: string;
  /** The host's own instructions, before the active toolsets'. */
  readonly instructions?: string;
  /** Makes every SDK server the host serves (e.g. a subclass carrying auth). */
  readonly serverFactory?: ServerFactory;
  /** Serve `list_server_toolsets` on every server. Default `false` (the command turns it on). */
  readonly toolsetsTool?: boolean;
  /** A pino-compatible logger. Default: JSON lines to stderr at `warn`. */
  readonly logger?: Logger;
  /** Throw from `buildHost` when anything failed at start-up (for tests and CI). */
  readonly strict?: boolean;
  /** Default time limit of a tool call, ms. Default 120 000; 0 disables. */
  readonly toolTimeoutMs?: number;
  /** Time limit of each `onServer` hook, ms. Default 5 000. */
  readonly onServerTimeoutMs?: number;
  /** Time limit of each `onStart` hook, ms. Default 30 000. */
  readonly onStartTimeoutMs?: number;
  /** Time limit of each `onStop` hook, ms. Default 10 000. */
  readonly onStopTimeoutMs?: number;
  /** How many blueprints (tenant × selection) are kept; least recently used go first. Default 64. */
  readonly maxCachedSelections?: number;
}

/** Options of a build, describe or read. */
export interface BuildOptions {
  /** The tenant (from the HTTP app's `tenant(req)`): its own cache entries and extensions. */
  readonly tenant?: string | undefined;
  /**
   * Toolsets this caller may not have (a token lacking their `scopes`): never
   * active — always-on ones included — and listed under `denied` by `describe()`.
   */
  readonly denied?: Iterable<string> | undefined;
}

/** The resolved surface for one set of active toolsets, and the means to mint servers for it. */
export interface BuiltServer {
  /** The first SDK server made for this blueprint. */
  readonly server: McpServer;
  /** The active toolsets. */
  readonly toolsets: ReadonlySet<string>;
  /** What a client will list, in order. */
  readonly toolNames: readonly string[];
  /** Names the selection used that nobody declared. */
  readonly unknown: ReadonlySet<string>;
  /** The resolved specs, in list order (handlers wrapped). */
  readonly tools: ReadonlyArray<ToolSpec<Record<string, unknown>>>;
  /** The server instructions for this selection. */
  readonly instructions: string;
  /** The cache key: the activation key. */
  readonly key: string;
  /** The host revision this blueprint was built at. */
  readonly revision: number;
  /** Mints a fresh, identical SDK server for another connection (an SDK server holds one at a time). */
  createServer(options?: { selection?: Selection }): Promise<McpServer>;
}

/** What `describe()`, `GET /toolsets` and `list_server_toolsets` answer. */
export interface HostDescription {
  toolsets: DescribedToolset[];
  active: string[];
  tools: string[];
  unknown: string[];
  conflicts: Conflict[];
  provenance: Record<string, { offeredBy: string; extendedBy: string[] }>;
  /** Tool extensions whose target no awake extension offers. */
  unappliedExtensions: Array<{ tool: string; extension: string }>;
  /** Problems the host contained (extensions, tools or hooks left out). */
  problems: Problem[];
  /** Toolsets this caller may not have (its token lacks their scopes); present when any are. */
  denied?: string[];
}

/** One extension as `report()` lists it. */
export interface ExtensionStatus {
  name: string;
  version: string;
  package?: string;
  state: ExtensionState | 'disabled';
  started: boolean;
  toolsets: string[];
  tools: number;
  activationEvents: string[];
}

/** What `host.report()` answers: every extension's status and every contained problem. */
export interface HostReport {
  name: string;
  version: string;
  hostVersion: string;
  revision: number;
  ok: boolean;
  extensions: ExtensionStatus[];
  problems: Problem[];
}

interface CacheEntry {
  readonly blueprint: Blueprint;
  readonly conflicts: Conflict[];
  readonly offerings: Offering[];
  built?: Promise<BuiltServer>;
}

/** The host. Make one with {@link buildHost}. */
export class McpHost {
  /** Increments whenever cached blueprints are dropped. */
  get revision(): number {
    return this._revision;
  }
  readonly name: string;
  readonly version: string;
  readonly logger: Logger;

  private _revision = 0;
  private started = false;
  private readonly options: HostOptions;
  private readonly problems = new ProblemLog();
  private readonly registry: Registry;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly declaredCache = new Map<string, Toolset[]>();
  private readonly offeringsCache = new Map<string, Offering[]>();
  private readonly servedCache = new WeakMap<Offering, ServedTool>();
  private readonly subscriptions = new Subscriptions();
  private readonly listTool: ServedTool;

  constructor(options: HostOptions = {}) {
    this.options = options;
    this.name = options.name ?? 'reactor-mcp-server';
    this.version = options.version ?? HOST_VERSION;
    this.logger = options.logger ?? createStderrLogger('warn', { name: this.name });
    this.registry = new Registry({
      logger: this.logger,
      problems: this.problems,
      onStartTimeoutMs: options.onStartTimeoutMs ?? 30_000,
      onStopTimeoutMs: options.onStopTimeoutMs ?? 10_000,
      changed: () => this.forgetBuilt(),
      isStarted: () => this.started,
    });
    this.listTool = createListToolsetsTool(
      (selection, tenant, granted) => this.describe(selection, { tenant, denied: deniedToolsets(this.declaredToolsets({ tenant }), granted).keys() }),
      this.serveOptions(),
    );
  }

  private serveOptions() {
    const limit = this.options.toolTimeoutMs ?? 120_000;
    return { logger: this.logger, problems: this.problems, toolTimeoutMs: isTimeLimit(limit) ? limit : undefined };
  }

  /** Registers more extensions (objects or deferred entries); drops the cache. */
  async add(...extensions: ExtensionInput[]): Promise<void> {
    await this.registry.register(extensions);
    if (this.started) await this.registry.startAll();
    this.forgetBuilt();
  }

  /** Serves a disabled extension again; drops the cache. */
  async enable(name: string): Promise<void> {
    const record = this.require(name);
    record.disabled = false;
    if (this.started && record.state === 'active') await this.registry.startAll();
    this.forgetBuilt();
  }

  /** Stops serving an extension (its state is kept); drops the cache. */
  async disable(name: string): Promise<void> {
    this.require(name).disabled = true;
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

  /** Drops every cached blueprint and increments `revision`. Open sessions keep theirs. */
  forgetBuilt(): void {
    this.cache.clear();
    this.declaredCache.clear();
    this.offeringsCache.clear();
    this._revision++;
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
    const key = options.tenant ?? '';
    let declared = this.declaredCache.get(key);
    if (!declared) {
      const seen = new Map<string, Toolset>();
      for (const record of this.registry.visible(options.tenant)) {
        for (const toolset of record.declaredToolsets) if (!seen.has(toolset.name)) seen.set(toolset.name, toolset);
      }
      declared = [...seen.values()];
      this.remember(this.declaredCache, key, declared);
    }
    return declared;
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
    return selectOfferings(this.offerings(options.tenant), active).served.map((o) => o.spec);
  }

  private offerings(tenant: string | undefined): Offering[] {
    const key = tenant ?? '';
    let offerings = this.offeringsCache.get(key);
    if (!offerings) {
      offerings = resolveOfferings(this.registry.active(tenant), this.problems, this.logger);
      this.remember(this.offeringsCache, key, offerings);
    }
    return offerings;
  }

  /**
   * Per-tenant caches are bounded like the blueprint cache: a tenant read from a
   * request header must not let a client grow memory by inventing tenants.
   */
  private remember<V>(cache: Map<string, V>, key: string, value: V): void {
    cache.set(key, value);
    const limit = Math.max(1, this.options.maxCachedSelections ?? 64);
    while (cache.size > limit) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  }

  /** Fires `onToolset:<name>` for what a selection names and what will be active; only where someone waits. */
  private async fireFor(selection: Selection, options: BuildOptions): Promise<void> {
    const listened = this.registry.listenedEvents();
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
    const options = once(buildOptions);
    const tenant = options.tenant;
    await this.fireFor(selection, options);
    const declared = this.declaredToolsets({ tenant });
    const entry = this.entryFor(withoutDenied(activeToolsets(declared, selection), options.denied), tenant);
    const unknown = unknownNames(declared, selection);
    if (!entry.built) {
      entry.built = this.materialize(entry, selection, unknown);
      entry.built.catch(() => (entry.built = undefined));
    }
    const built = await entry.built;
    if (sameSet(built.unknown, unknown)) return built;
    return { ...built, unknown, createServer: (opts) => built.createServer({ selection: opts?.selection ?? selection }) };
  }

  private entryFor(active: ReadonlySet<string>, tenant: string | undefined): CacheEntry {
    const key = activationKey(active);
    const cacheKey = `${tenant ?? ''}\u0000${key}`;
    const hit = this.cache.get(cacheKey);
    if (hit) {
      // Least recently used goes first: a hit moves to the back.
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, hit);
      return hit;
    }
    const entry = this.computeBlueprint(key, active, tenant);
    this.cache.set(cacheKey, entry);
    const limit = Math.max(1, this.options.maxCachedSelections ?? 64);
    while (this.cache.size > limit) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
    return entry;
  }

  private computeBlueprint(key: string, active: ReadonlySet<string>, tenant: string | undefined): CacheEntry {
    stats.blueprints++;
    const offerings = this.offerings(tenant);
    const { served, conflicts } = selectOfferings(offerings, active);
    for (const conflict of conflicts) {
      const message = `tool "${conflict.tool}" is offered by extensions ${[conflict.served, ...conflict.ignored].map((e) => `"${e}"`).join(', ')}; "${conflict.served}" (registered first) is served, the others are left out; hint: rename one of the tools, or extend it with toolExtensions() instead of offering it again`;
      this.problems.add({ code: ErrorCodes.TOOL_CONFLICT, subject: conflict.tool, message, phase: 'build' });
      this.logger.warn({ code: ErrorCodes.TOOL_CONFLICT, tool: conflict.tool, served: conflict.served, ignored: conflict.ignored }, message);
    }
    const tools: ServedTool[] = [];
    for (const offering of served) {
      let tool = this.servedCache.get(offering);
      if (!tool) {
        try {
          tool = serveTool(offering.spec, offering.extension, this.serveOptions());
        } catch (error) {
          // A schema that cannot be served costs that tool only.
          const problem = this.problems.addError(error, ErrorCodes.TOOL_INVALID, 'build', offering.extension, offering.spec.name);
          this.logger.error({ code: problem.code, extension: offering.extension, tool: offering.spec.name }, problem.message);
          continue;
        }
        this.servedCache.set(offering, tool);
      }
      tools.push(tool);
    }
    if (this.options.toolsetsTool === true) {
      if (tools.some((t) => t.name === LIST_SERVER_TOOLSETS)) {
        this.logger.warn({ tool: LIST_SERVER_TOOLSETS }, `an extension offers its own "${LIST_SERVER_TOOLSETS}"; it is served instead of the host's`);
      } else tools.push(this.listTool);
    }
    const records = this.registry.active(tenant);
    const participants = records
      .filter((r) => typeof r.instance?.onServer === 'function')
      .filter((r) => {
        const c = r.contributions;
        return (
          (c?.toolsets ?? []).some((t) => active.has(t.name)) ||
          // Contributed, not only served: an extension whose tool lost a collision still participates.
          (c?.tools ?? []).some((t) => active.has(t.toolset)) ||
          (c?.resources ?? []).some((x) => active.has(x.toolset)) ||
          (c?.prompts ?? []).some((x) => active.has(x.toolset))
        );
      })
      .map((r) => ({ name: r.name, extension: r.instance!, logger: r.logger }));
    const offered = <T>(pick: (r: ExtensionRecord) => ReadonlyArray<T & { toolset: string }>) =>
      records.flatMap((r) => pick(r).filter((x) => active.has(x.toolset)).map((spec) => ({ extension: r.name, spec: spec })));
    const blueprint: Blueprint = {
      key,
      tenant,
      revision: this._revision,
      toolsets: active,
      instructions: this.instructionsFor(active, { tenant }),
      tools,
      toolIndex: new Map(tools.map((t) => [t.name, t])),
      listResult: renderToolList(tools),
      resources: this.firstOffered('resource', offered<ResourceSpec>((r) => r.contributions?.resources ?? []), (s) => s.uri ?? s.template ?? s.name),
      prompts: this.firstOffered('prompt', offered<PromptSpec>((r) => r.contributions?.prompts ?? []), (s) => s.name),
      participants,
    };
    return { blueprint, conflicts, offerings: served };
  }

  /**
   * Resources (by URI or template) and prompts (by name) collide like tools: the
   * first registered is served, and the others are reported, never dropped silently.
   */
  private firstOffered<T>(kind: 'resource' | 'prompt', items: Array<{ extension: string; spec: T }>, keyOf: (spec: T) => string): Array<{ extension: string; spec: T }> {
    const first = new Map<string, { extension: string; spec: T }>();
    for (const item of items) {
      const key = keyOf(item.spec);
      const winner = first.get(key);
      if (!winner) {
        first.set(key, item);
        continue;
      }
      const code = kind === 'resource' ? ErrorCodes.RESOURCE_INVALID : ErrorCodes.PROMPT_INVALID;
      const message = `${kind} "${key}" is offered by extensions "${winner.extension}" and "${item.extension}"; "${winner.extension}" (registered first) is served, the other is left out; hint: give one of them another ${kind === 'resource' ? 'URI' : 'name'}`;
      this.problems.add({ code, extension: item.extension, subject: key, message, phase: 'build' });
      this.logger.warn({ code, extension: item.extension, served: winner.extension, [kind]: key }, message);
    }
    return [...first.values()];
  }

  private async materialize(entry: CacheEntry, selection: Selection, unknown: ReadonlySet<string>): Promise<BuiltServer> {
    const blueprint = entry.blueprint;
    const createServer = (opts?: { selection?: Selection }) =>
      mintServer(blueprint, opts?.selection ?? selection, {
        serverName: this.name,
        serverVersion: this.version,
        serverFactory: this.options.serverFactory,
        onServerTimeoutMs: this.options.onServerTimeoutMs ?? 5_000,
        logger: this.logger,
        problems: this.problems,
        subscriptions: this.subscriptions,
      });
    const server = await createServer();
    return {
      server,
      toolsets: blueprint.toolsets,
      toolNames: blueprint.tools.map((t) => t.name),
      unknown,
      tools: blueprint.tools.map((t) => t.spec),
      instructions: blueprint.instructions,
      key: blueprint.key,
      revision: blueprint.revision,
      createServer,
    };
  }

  /**
   * What a connection with this selection would get (`GET /toolsets`). Makes no
   * SDK server; may wake the extensions the selection names.
   */
  async describe(selection: Selection = EMPTY_SELECTION, buildOptions: BuildOptions = {}): Promise<HostDescription> {
    const options = once(buildOptions);
    const tenant = options.tenant;
    await this.fireFor(selection, options);
    const declared = this.declaredToolsets({ tenant });
    const active = withoutDenied(activeToolsets(declared, selection), options.denied);
    const entry = this.entryFor(active, tenant);
    const denied = [...new Set(options.denied ?? [])].sort(compareCodePoints);
    const provenance: HostDescription['provenance'] = {};
    for (const offering of entry.offerings) provenance[offering.spec.name] = { offeredBy: offering.extension, extendedBy: [...offering.extendedBy] };
    if (entry.blueprint.toolIndex.get(LIST_SERVER_TOOLSETS) === this.listTool) provenance[LIST_SERVER_TOOLSETS] = { offeredBy: 'host', extendedBy: [] };
    return {
      toolsets: [...declared].sort(byName).map((t) => describeToolset(t, active.has(t.name))),
      active: [...active].sort(compareCodePoints),
      tools: entry.blueprint.tools.map((t) => t.name).sort(compareCodePoints),
      unknown: [...unknownNames(declared, selection)].sort(compareCodePoints),
      conflicts: entry.conflicts,
      provenance,
      unappliedExtensions: orphanToolExtensions(this.registry.active(tenant)),
      problems: this.problems.list(),
      ...(denied.length > 0 ? { denied } : {}),
    };
  }

  /** Every extension's status and every problem the host contained. */
  report(): HostReport {
    const problems = this.problems.list();
    return {
      name: this.name,
      version: this.version,
      hostVersion: HOST_VERSION,
      revision: this._revision,
      ok: !this.registry.records.some((r) => r.state === 'failed'),
      extensions: this.registry.records.map((r) => ({
        name: r.name,
        version: r.manifest.version,
        ...(r.package !== undefined ? { package: r.package } : {}),
        state: r.disabled ? 'disabled' : r.state,
        started: r.started,
        toolsets: r.declaredToolsets.map((t) => t.name),
        tools: r.contributions?.tools.length ?? 0,
        activationEvents: [...(r.manifest.activationEvents ?? [])],
      })),
      problems,
    };
  }

  /** Tells every session subscribed to `uri` that it changed. Returns how many were told. */
  async notifyResourceUpdated(uri: string): Promise<number> {
    return await this.subscriptions.notify(uri);
  }

  /**
   * @internal For `strict`: resolve every awake extension's tools now (tool
   * extensions applied, schemas converted) for each tenant a manifest names and
   * for none, so failures that would otherwise surface at the first request count
   * as start-up problems. Returns every problem found so far.
   */
  startupProblems(): Problem[] {
    const tenants = new Set<string | undefined>([undefined, ...this.registry.records.flatMap((r) => r.manifest.tenants ?? [])]);
    for (const tenant of tenants) {
      for (const offering of this.offerings(tenant)) {
        if (this.servedCache.has(offering)) continue;
        try {
          this.servedCache.set(offering, serveTool(offering.spec, offering.extension, this.serveOptions()));
        } catch (error) {
          this.problems.addError(error, ErrorCodes.TOOL_INVALID, 'build', offering.extension, offering.spec.name);
        }
      }
    }
    const failures = new Set<string>([ErrorCodes.TOOL_EXTENSION_FAILED, ErrorCodes.TOOL_INVALID]);
    return this.problems.list((p) => p.phase === 'startup' || p.phase === 'activation' || (p.phase === 'build' && failures.has(p.code)));
  }
}


/** `denied` may be any iterable, a one-shot iterator included: read it once. */
function once(options: BuildOptions): BuildOptions {
  return options.denied === undefined || Array.isArray(options.denied) ? options : { ...options, denied: [...options.denied] };
}

/** The active set less what the caller is denied (scopes beat even always-on toolsets). */
function withoutDenied(active: Set<string>, denied: Iterable<string> | undefined): Set<string> {
  if (denied === undefined) return active;
  for (const name of denied) active.delete(name);
  return active;
}
const byName = (a: { name: string }, b: { name: string }) => compareCodePoints(a.name, b.name);
const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/**
 * Registers the extensions (objects or entries from `loadExtensions`), starts
 * the host, and returns it. With `strict`, throws one error listing every
 * problem found at start-up.
 */
export async function buildHost(extensions: readonly ExtensionInput[], options: HostOptions = {}): Promise<McpHost> {
  const host = new McpHost(options);
  await host.add(...extensions);
  await host.start();
  const problems = options.strict === true ? host.startupProblems() : [];
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
