/**
 * The registry of extensions: registration (validated, ordered by
 * dependencies), activation events (held extensions woken single-flight, stood
 * down on deactivation events), `enable`/`disable`, tenants, and the lifecycle
 * hooks. It reads contributions once, when an extension activates, and keeps
 * them; it never builds a server.
 */
import semver from 'semver';
import { describeValue, ErrorCodes, errorMessage, ReactorError } from './errors.js';
import {
  assertValidManifest,
  isDeferredExtension,
  isExtension,
  type DeferredExtension,
  type ExtensionInput,
  type McpExtension,
  type PluginManifest,
} from './extension.js';
import type { Logger } from './logger.js';
import type { ProblemLog } from './problems.js';
import { withTimeout } from './timeLimit.js';
import { assertValidPrompt, assertValidResource, type PromptSpec, type ResourceSpec } from './resource.js';
import { assertValidToolSpec, type ToolSpec } from './tool.js';
import type { ToolExtension } from './toolExtension.js';
import { assertValidToolset, type Toolset } from './toolset.js';
import { HOST_VERSION } from './version.js';

/** Where an extension stands. */
export type ExtensionState = 'held' | 'active' | 'failed' | 'stopped';

/** What an active extension contributes, read once and validated. */
export interface Contributions {
  readonly toolsets: readonly Toolset[];
  /** Tools with `toolset` filled in. */
  readonly tools: ReadonlyArray<ToolSpec<Record<string, unknown>> & { readonly toolset: string }>;
  readonly toolExtensions: ReadonlyArray<readonly [string, ToolExtension]>;
  readonly resources: ReadonlyArray<ResourceSpec & { readonly toolset: string }>;
  readonly prompts: ReadonlyArray<PromptSpec & { readonly toolset: string }>;
}

/** One registered extension. */
export interface ExtensionRecord {
  readonly name: string;
  /** Position in registration order (after dependency ordering). */
  index: number;
  readonly manifest: PluginManifest;
  readonly package: string | undefined;
  readonly source: ExtensionInput;
  instance: McpExtension | undefined;
  state: ExtensionState;
  disabled: boolean;
  started: boolean;
  declaredToolsets: readonly Toolset[];
  contributions: Contributions | undefined;
  wake: Promise<boolean> | undefined;
  readonly logger: Logger;
}

/** The host services the registry needs. */
export interface RegistryContext {
  readonly logger: Logger;
  readonly problems: ProblemLog;
  readonly onStartTimeoutMs: number;
  readonly onStopTimeoutMs: number;
  /** Called whenever what serves changed (a wake, a stand-down, enable/disable). */
  readonly changed: () => void;
  /** Whether `start()` has run (an extension woken later gets `onStart` when it wakes). */
  readonly isStarted: () => boolean;
}

export class Registry {
  readonly records: ExtensionRecord[] = [];
  private readonly byName = new Map<string, ExtensionRecord>();

  constructor(private readonly ctx: RegistryContext) {}

  get(name: string): ExtensionRecord | undefined {
    return this.byName.get(name);
  }

  /** Records that serve a tenant: enabled, not failed, and with a matching `tenants` list. */
  visible(tenant: string | undefined): ExtensionRecord[] {
    return this.records.filter((r) => !r.disabled && r.state !== 'failed' && servesTenant(r.manifest, tenant));
  }

  /** Active records serving a tenant, in registration order. */
  active(tenant: string | undefined): ExtensionRecord[] {
    return this.visible(tenant).filter((r) => r.state === 'active' && r.contributions !== undefined);
  }

  /**
   * Registers extensions: validates each, orders them by dependencies (ties by
   * the order given), activates those without activation events, and holds the
   * rest. A bad one is recorded as failed and reported; it never throws.
   */
  async register(inputs: readonly unknown[]): Promise<ExtensionRecord[]> {
    const fresh: ExtensionRecord[] = [];
    for (const input of inputs) {
      const record = this.admit(input);
      if (record) fresh.push(record);
    }
    this.order();
    for (const record of this.records) {
      if (!fresh.includes(record) || record.state === 'failed') continue;
      if (isHeld(record.manifest)) {
        record.state = 'held';
        continue;
      }
      // A dependency must be active first: a held one is woken for its dependent.
      for (const dep of record.manifest.dependencies ?? []) {
        const target = this.byName.get(dep);
        if (target?.state === 'held') await this.wake(target);
      }
      await this.activate(record);
    }
    return fresh;
  }

  private admit(input: unknown): ExtensionRecord | undefined {
    const deferred = isDeferredExtension(input);
    if (!isExtension(input)) {
      this.ctx.problems.add({
        code: ErrorCodes.EXTENSION_INVALID,
        phase: 'startup',
        message: new ReactorError(ErrorCodes.EXTENSION_INVALID, {
          subject: 'a registered value',
          problem: 'is not an extension',
          expected: 'an object with a manifest { name, version }',
          received: describeValue(input),
          hint: 'pass defineExtension({ manifest, … }) or entries from loadExtensions()',
        }).message,
      });
      this.ctx.logger.error({ code: ErrorCodes.EXTENSION_INVALID, received: describeValue(input) }, 'a registered value is not an extension; skipped');
      return undefined;
    }
    const raw = input as ExtensionInput;
    const origin = deferred ? (raw as DeferredExtension).package : undefined;
    const name = typeof raw.manifest.name === 'string' && raw.manifest.name !== '' ? raw.manifest.name : `(unnamed #${this.records.length})`;
    const record: ExtensionRecord = {
      name,
      index: this.records.length,
      manifest: raw.manifest,
      package: origin,
      source: raw,
      instance: deferred ? undefined : (raw as McpExtension),
      state: 'held',
      disabled: false,
      started: false,
      declaredToolsets: [],
      contributions: undefined,
      wake: undefined,
      logger: this.ctx.logger.child({ extension: name }),
    };
    try {
      if (this.byName.has(name)) {
        throw new ReactorError(ErrorCodes.EXTENSION_DUPLICATE, {
          subject: `extension "${name}"${origin ? ` (${origin})` : ''}`,
          problem: 'is registered twice; the second registration is ignored',
          hint: 'install each extension once, or give one of them another manifest name',
          extension: name,
        });
      }
      const discoveryError = deferred ? (raw as DeferredExtension).error : undefined;
      if (discoveryError) throw discoveryError;
      assertValidManifest(raw.manifest, origin);
      assertCompatible(raw.manifest, origin);
      record.declaredToolsets = declaredToolsetsOf(raw, name);
    } catch (error) {
      if (this.byName.has(name)) {
        this.report(record, error, ErrorCodes.EXTENSION_DUPLICATE, 'startup');
        return undefined;
      }
      this.fail(record, error, ErrorCodes.MANIFEST_INVALID, 'startup');
    }
    this.records.push(record);
    this.byName.set(name, record);
    return record;
  }

  /** Orders records topologically by `dependencies` (stable: ties keep their order); fails missing deps and cycles. */
  private order(): void {
    const ordered: ExtensionRecord[] = [];
    const placed = new Set<ExtensionRecord>();
    const visiting: ExtensionRecord[] = [];
    const visit = (record: ExtensionRecord): void => {
      if (placed.has(record)) return;
      const at = visiting.indexOf(record);
      if (at >= 0) {
        const chain = [...visiting.slice(at), record].map((r) => r.name).join(' → ');
        for (const member of visiting.slice(at)) {
          if (member.state !== 'failed') {
            this.fail(member, new ReactorError(ErrorCodes.DEPENDENCY_CYCLE, {
              subject: `extension "${member.name}"`,
              problem: `its dependencies form a cycle: ${chain}`,
              hint: 'remove one of the dependencies in the cycle',
              extension: member.name,
            }), ErrorCodes.DEPENDENCY_CYCLE, 'startup');
          }
        }
        return;
      }
      visiting.push(record);
      for (const dep of record.manifest.dependencies ?? []) {
        const target = this.byName.get(dep);
        if (target) visit(target);
      }
      visiting.pop();
      placed.add(record);
      ordered.push(record);
    };
    for (const record of this.records) visit(record);
    ordered.forEach((r, i) => (r.index = i));
    this.records.splice(0, this.records.length, ...ordered);
    // Missing or failed dependencies fail their dependents, transitively (records are in dependency order now).
    for (const record of this.records) {
      if (record.state === 'failed') continue;
      for (const dep of record.manifest.dependencies ?? []) {
        const target = this.byName.get(dep);
        if (!target || target.state === 'failed') {
          this.fail(record, new ReactorError(ErrorCodes.DEPENDENCY_MISSING, {
            subject: `extension "${record.name}"`,
            problem: target ? `depends on extension "${dep}", which failed` : `depends on extension "${dep}", which is not registered`,
            hint: target ? `fix "${dep}" first (see its own problem)` : `install and register "${dep}", or remove it from manifest.dependencies`,
            extension: record.name,
          }), ErrorCodes.DEPENDENCY_MISSING, 'startup');
          break;
        }
      }
    }
  }

  /**
   * The events some extension listens to right now: held ones' activation
   * events and active ones' deactivation events. Lets a build skip firing
   * the events nobody waits on, which is nearly all of them on the hot path.
   */
  listenedEvents(): Set<string> {
    const events = new Set<string>();
    for (const record of this.records) {
      if (record.disabled) continue;
      const listening = record.state === 'held' ? record.manifest.activationEvents : record.state === 'active' ? record.manifest.deactivationEvents : undefined;
      for (const event of listening ?? []) events.add(event);
    }
    return events;
  }

  /**
   * Fires an activation event: wakes the held extensions waiting on it (and
   * their held dependencies) and stands down the active ones it deactivates.
   * Returns true when anything changed. Concurrent calls share one wake.
   */
  async fire(event: string, tenant?: string): Promise<boolean> {
    let changed = false;
    for (const record of this.visible(tenant)) {
      if (record.state === 'held' && (record.manifest.activationEvents ?? []).includes(event)) {
        if (await this.wake(record)) changed = true;
      } else if (record.state === 'active' && (record.manifest.deactivationEvents ?? []).includes(event)) {
        await this.standDown(record);
        changed = true;
      }
    }
    return changed;
  }

  /** Wakes one held record, once: concurrent callers wait on the same import and `onStart`. */
  wake(record: ExtensionRecord): Promise<boolean> {
    if (record.state !== 'held') return Promise.resolve(false);
    record.wake ??= (async () => {
      try {
        for (const dep of record.manifest.dependencies ?? []) {
          const target = this.byName.get(dep);
          if (target?.state === 'held') await this.wake(target);
          if (target?.state !== 'active') {
            throw new ReactorError(ErrorCodes.DEPENDENCY_MISSING, {
              subject: `extension "${record.name}"`,
              problem: `cannot wake: its dependency "${dep}" is ${target ? target.state : 'not registered'}`,
              hint: `fix or enable "${dep}"`,
              extension: record.name,
            });
          }
        }
        // Visible to builds only once onStart succeeded: until then the record stays
        // held, so concurrent builds wait on this same wake instead of serving early.
        await this.activate(record, { visible: false });
        if (record.state !== 'failed' && this.ctx.isStarted()) await this.startOne(record);
        if (record.state !== 'failed') record.state = 'active';
        record.logger.info({ state: record.state }, 'extension woke');
        return true;
      } catch (error) {
        this.fail(record, error, ErrorCodes.LOAD_FAILED, 'activation');
        return true;
      } finally {
        record.wake = undefined;
        this.ctx.changed();
      }
    })();
    return record.wake;
  }

  /** Imports (when deferred) and reads an extension's contributions, all or nothing. */
  async activate(record: ExtensionRecord, options: { visible?: boolean } = {}): Promise<void> {
    try {
      if (!record.instance) record.instance = await loadDeferred(record);
      record.contributions = readContributions(record.instance, record.name, record.declaredToolsets, (error, code) =>
        this.report(record, error, code, 'activation'),
      );
      record.declaredToolsets = record.contributions.toolsets;
      if (options.visible !== false) record.state = 'active';
    } catch (error) {
      this.fail(record, error, ErrorCodes.CONTRIBUTION_FAILED, 'activation');
    }
  }

  /** Runs `onStart` of every active extension not started yet, dependencies first. */
  async startAll(): Promise<void> {
    for (const record of this.records) if (record.state === 'active' && !record.disabled) await this.startOne(record);
  }

  private async startOne(record: ExtensionRecord): Promise<void> {
    if (record.started || !record.instance) return;
    const onStart = record.instance.onStart;
    try {
      if (typeof onStart === 'function') {
        await withTimeout(() => onStart.call(record.instance), this.ctx.onStartTimeoutMs, () => new Error(`onStart did not finish within ${this.ctx.onStartTimeoutMs} ms`));
      }
      record.started = true;
    } catch (error) {
      this.fail(record, new ReactorError(ErrorCodes.START_FAILED, {
        subject: `extension "${record.name}"`,
        problem: `onStart failed, so its contributions are withdrawn (${errorMessage(error)})`,
        hint: 'check the extension\'s configuration and the error above',
        extension: record.name,
        cause: error,
      }), ErrorCodes.START_FAILED, 'startup');
    }
  }

  /** Runs `onStop` of every started extension, in reverse order. */
  async stopAll(): Promise<void> {
    for (const record of [...this.records].reverse()) await this.stopOne(record);
  }

  private async stopOne(record: ExtensionRecord): Promise<void> {
    if (!record.started) return;
    record.started = false;
    const onStop = record.instance?.onStop;
    if (typeof onStop !== 'function') return;
    try {
      await withTimeout(() => onStop.call(record.instance), this.ctx.onStopTimeoutMs, () => new Error(`onStop did not finish within ${this.ctx.onStopTimeoutMs} ms`));
    } catch (error) {
      this.report(record, error, ErrorCodes.STOP_FAILED, 'shutdown');
    }
  }

  /** Stands an active extension down: `onStop`, contributions withdrawn; it may wake again. */
  async standDown(record: ExtensionRecord): Promise<void> {
    await this.stopOne(record);
    record.contributions = undefined;
    record.state = isHeld(record.manifest) ? 'held' : 'stopped';
    record.logger.info('extension stood down');
    this.ctx.changed();
  }

  /** Marks a record failed: contributions withdrawn, problem logged and kept. */
  fail(record: ExtensionRecord, error: unknown, code: Parameters<ProblemLog['addError']>[1], phase: 'startup' | 'activation'): void {
    record.state = 'failed';
    record.contributions = undefined;
    this.report(record, error, code, phase);
  }

  report(record: ExtensionRecord, error: unknown, code: Parameters<ProblemLog['addError']>[1], phase: 'startup' | 'activation' | 'shutdown'): void {
    const problem = this.ctx.problems.addError(error, code, phase, record.name);
    record.logger.error({ code: problem.code, err: error instanceof Error ? error : undefined }, problem.message);
  }
}

function isHeld(manifest: PluginManifest): boolean {
  const events = manifest.activationEvents;
  return events !== undefined && events.length > 0 && !events.includes('*') && !events.includes('onStartup');
}

/** Tenants: no list serves everyone (and untenanted builds); a list serves exactly those tenants. */
export function servesTenant(manifest: PluginManifest, tenant: string | undefined): boolean {
  if (manifest.tenants === undefined) return true;
  return tenant !== undefined && manifest.tenants.includes(tenant);
}

function assertCompatible(manifest: PluginManifest, origin: string | undefined): void {
  if (manifest.host === undefined) return;
  if (!semver.satisfies(HOST_VERSION, manifest.host, { includePrerelease: true })) {
    throw new ReactorError(ErrorCodes.EXTENSION_INCOMPATIBLE, {
      subject: `extension "${manifest.name}"${origin ? ` (${origin})` : ''}`,
      problem: 'does not support this version of @reactor/host',
      expected: `a host in ${manifest.host}`,
      received: `@reactor/host@${HOST_VERSION}`,
      hint: 'install a version of the extension built for this host, or upgrade the host',
      extension: manifest.name,
    });
  }
}

function declaredToolsetsOf(input: ExtensionInput, name: string): Toolset[] {
  let toolsets: unknown;
  if (isDeferredExtension(input)) toolsets = input.toolsets;
  else if (typeof input.toolsets === 'function') {
    try {
      toolsets = input.toolsets();
    } catch (error) {
      throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, {
        subject: `extension "${name}"`,
        problem: `toolsets() threw (${errorMessage(error)})`,
        hint: 'toolsets() must be cheap and free of side effects: return a constant array',
        extension: name,
        cause: error,
      });
    }
  }
  if (toolsets === undefined) return [{ name }];
  if (!Array.isArray(toolsets)) {
    throw new ReactorError(ErrorCodes.TOOLSET_INVALID, { subject: `extension "${name}"`, problem: 'toolsets() did not return an array', received: describeValue(toolsets), extension: name });
  }
  // An extension that declares none gets one toolset named after it, on by default.
  if (toolsets.length === 0) return [{ name }];
  const list = toolsets as Toolset[];
  for (const t of list) assertValidToolset(t, name);
  return [...list];
}

async function loadDeferred(record: ExtensionRecord): Promise<McpExtension> {
  const source = record.source as DeferredExtension;
  let instance: McpExtension;
  try {
    instance = await source.load();
  } catch (error) {
    throw new ReactorError(ErrorCodes.LOAD_FAILED, {
      subject: `extension "${record.name}" (${source.package})`,
      problem: `could not be imported (${errorMessage(error)})`,
      hint: 'check that the package is built and its reactorMcp "module" path exists',
      extension: record.name,
      cause: error,
    });
  }
  if (!isExtension(instance)) {
    throw new ReactorError(ErrorCodes.LOAD_FAILED, {
      subject: `extension "${record.name}" (${source.package})`,
      problem: 'its module did not export an extension',
      expected: 'an extension object, a class or a factory',
      received: describeValue(instance),
      extension: record.name,
    });
  }
  assertMatchesDeclaration(record, instance, source);
  return instance;
}

function assertMatchesDeclaration(record: ExtensionRecord, instance: McpExtension, source: DeferredExtension): void {
  const mismatch = (what: string, expected: string, received: string): never => {
    throw new ReactorError(ErrorCodes.DECLARATION_MISMATCH, {
      subject: `extension "${record.name}" (${source.package})`,
      problem: `its module's ${what} differs from the reactorMcp field of its package.json`,
      expected,
      received,
      hint: 'make package.json "reactorMcp" and the exported extension declare the same name, activationEvents and toolsets',
      extension: record.name,
    });
  };
  if (instance.manifest.name !== record.name) mismatch('manifest.name', JSON.stringify(record.name), JSON.stringify(instance.manifest.name));
  // No activationEvents on either side means "none": the two must agree either way.
  const events = (list: readonly string[] | undefined) => `[${[...(list ?? [])].sort().join(',')}]`;
  if (events(instance.manifest.activationEvents) !== events(record.manifest.activationEvents)) {
    mismatch('activationEvents', events(record.manifest.activationEvents), events(instance.manifest.activationEvents));
  }
  // What activation depends on must agree too: a module cannot turn a listed opt-in toolset into an always-on one.
  if (source.toolsets !== undefined) {
    const shape = (toolsets: readonly Toolset[]) =>
      `[${toolsets.map((t) => `${t.name}(default ${String(t.default ?? true)}, always ${String(t.always ?? false)}${t.scopes ? `, scopes ${[...t.scopes].sort().join(' ')}` : ''})`).sort().join(', ')}]`;
    const own = typeof instance.toolsets === 'function' ? instance.toolsets() : [{ name: record.name }];
    if (shape(own) !== shape(source.toolsets)) mismatch('toolsets', shape(source.toolsets), shape(own));
  }
}

/**
 * Reads an extension's contributions. A throwing `tools()`/`resources()`/…
 * costs all of them (none half-made); an individual invalid tool, resource or
 * prompt costs only itself and is reported through `onInvalid`.
 */
function readContributions(
  ext: McpExtension,
  name: string,
  declared: readonly Toolset[],
  onInvalid: (error: unknown, code: Parameters<ProblemLog['addError']>[1]) => void,
): Contributions {
  const call = <T>(point: string, fn: (() => T) | undefined, fallback: T): T => {
    if (fn === undefined) return fallback;
    if (typeof fn !== 'function') throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, { subject: `extension "${name}"`, problem: `${point} is not a function`, received: describeValue(fn), extension: name });
    try {
      const value = fn.call(ext);
      if (!Array.isArray(value)) throw new Error(`returned ${describeValue(value)}, expected an array`);
      return value;
    } catch (error) {
      throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, {
        subject: `extension "${name}"`,
        problem: `${point}() threw, so none of its contributions are served (${errorMessage(error)})`,
        hint: `fix ${point}() of "${name}"`,
        extension: name,
        cause: error,
      });
    }
  };
  // Re-read: a deferred extension's declaration was checked against its module on import.
  const toolsets = declared.length > 0 && !ext.toolsets ? declared : declaredToolsetsOf(ext, name);
  const home = toolsets[0]?.name ?? name;
  const rawTools = call('tools', ext.tools as (() => ToolSpec<Record<string, unknown>>[]) | undefined, []);
  const toolExtensions = call('toolExtensions', ext.toolExtensions, []);
  const rawResources = call('resources', ext.resources, []);
  const rawPrompts = call('prompts', ext.prompts, []);
  const keep = <T>(items: readonly T[], check: (item: T) => void, code: Parameters<ProblemLog['addError']>[1]): T[] =>
    items.filter((item) => {
      try {
        check(item);
        return true;
      } catch (error) {
        onInvalid(error, code);
        return false;
      }
    });
  const tools = keep(rawTools, (t) => assertValidToolSpec(t as ToolSpec<unknown>, name), ErrorCodes.TOOL_INVALID).map((t) => ({ ...t, toolset: t.toolset ?? home }));
  const validExtensions = keep(toolExtensions, (pair) => {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'object' || pair[1] === null) {
      throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, { subject: `extension "${name}"`, problem: 'a toolExtensions() entry is not a [toolName, extension] pair', received: describeValue(pair), extension: name });
    }
  }, ErrorCodes.CONTRIBUTION_FAILED);
  const resources = keep(rawResources, (r) => assertValidResource(r, name), ErrorCodes.RESOURCE_INVALID).map((r) => ({ ...r, toolset: r.toolset ?? home }));
  const prompts = keep(rawPrompts, (p) => assertValidPrompt(p, name), ErrorCodes.PROMPT_INVALID).map((p) => ({ ...p, toolset: p.toolset ?? home }));
  return { toolsets, tools, toolExtensions: validExtensions, resources, prompts };
}
