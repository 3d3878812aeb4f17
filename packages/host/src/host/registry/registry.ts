/**
 * The registry of extensions: registration (validated, ordered by
 * dependencies), activation events (held extensions woken single-flight, stood
 * down on deactivation events), `enable`/`disable`, tenants, and the lifecycle
 * hooks. What an extension contributes is read by `contributions.ts` once, when
 * it activates, and kept; a deferred one is imported by `deferredLoad.ts`. It
 * never builds a server.
 */
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../../kernel/errors.js';
import { assertValidManifest, isDeferredExtension, isExtension, type DeferredExtension, type ExtensionInput, type ExtensionStartContext, type McpExtension } from '../../contract/extension.js';
import { assertCompatible } from './compatibility.js';
import { declaredToolsetsOf, readContributions, type Contributions } from './contributions.js';
import { loadDeferred } from './deferredLoad.js';
import { orderByDependencies } from './dependencyOrder.js';
import { isHeld, servesTenant, type ExtensionRecord } from './extensionRecord.js';
import type { Logger } from '../../kernel/logger.js';
import type { ProblemLog } from '../../kernel/problems.js';
import { withTimeout } from '../../kernel/timeLimit.js';

export type { ExtensionRecord, ExtensionState } from './extensionRecord.js';
export type { Contributions } from './contributions.js';

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
  /** Traces a wake as a span of its own (the host's `telemetry`); absent: untraced. */
  readonly traceWake?: (extension: string, wake: () => Promise<boolean>, failure: () => unknown) => Promise<boolean>;
}

export class Registry {
  readonly records: ExtensionRecord[] = [];
  private readonly byName = new Map<string, ExtensionRecord>();
  /** Per started extension, the token its start context is valid under. */
  private readonly startTokens = new Map<ExtensionRecord, symbol>();

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
    orderByDependencies(this.records, this.byName, (record, error, code, phase) => this.fail(record, error, code, phase));
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
      const error = new ReactorError(ErrorCodes.EXTENSION_INVALID, {
        subject: 'a registered value',
        problem: 'is not an extension, so it is skipped',
        expected: 'an object with a manifest { name, version }',
        received: describeValue(input),
        hint: 'pass defineExtension({ manifest, … }) or entries from loadExtensions()',
      });
      this.ctx.problems.reportError(this.ctx.logger, error, ErrorCodes.EXTENSION_INVALID, 'startup', {}, { fields: { received: describeValue(input) } });
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

  /**
   * The events some extension listens to right now: held ones' activation
   * events and active ones' deactivation events. Lets a build skip firing
   * the events nobody waits on, which is nearly all of them on the hot path.
   */
  listenedEvents(): Set<string> {
    const events = new Set<string>();
    for (const record of this.records) for (const event of listenedBy(record) ?? []) events.add(event);
    return events;
  }

  /** Whether any extension listens to an event right now: {@link listenedEvents} not empty, asked on every build without making the set. */
  listensToAny(): boolean {
    for (const record of this.records) if ((listenedBy(record)?.length ?? 0) > 0) return true;
    return false;
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
    // A wake that fails is recorded (the extension is marked failed), not thrown: the span is told so.
    record.wake ??= this.ctx.traceWake ? this.ctx.traceWake(record.name, () => this.wakeNow(record), () => (record.state === 'failed' ? record.failure : undefined)) : this.wakeNow(record);
    return record.wake;
  }

  /** The wake itself: dependencies first, then import and `onStart`. */
  private async wakeNow(record: ExtensionRecord): Promise<boolean> {
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
  }

  /** Imports (when deferred) and reads an extension's contributions, all or nothing. */
  async activate(record: ExtensionRecord, options: { visible?: boolean } = {}): Promise<void> {
    try {
      if (!record.instance) record.instance = await loadDeferred(record);
      record.contributions = readContributions(record.instance, record.name, record.declaredToolsets, (error, code, subject) =>
        this.report(record, error, code, 'activation', subject),
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
        // Valid from this start until the extension stops (or fails): a context kept from an earlier start is dead.
        const token = Symbol(record.name);
        this.startTokens.set(record, token);
        const context: ExtensionStartContext = { logger: record.logger, contributionsChanged: () => this.startTokens.get(record) === token && this.reread(record) };
        await withTimeout(() => onStart.call(record.instance, context), this.ctx.onStartTimeoutMs, () => new Error(`onStart did not finish within ${this.ctx.onStartTimeoutMs} ms`));
      }
      record.started = true;
    } catch (error) {
      this.fail(record, new ReactorError(ErrorCodes.START_FAILED, {
        subject: `extension "${record.name}"`,
        problem: `onStart failed, so its contributions are withdrawn (${errorMessage(error)})`,
        hint: 'check the extension\'s configuration (the cause is in parentheses above)',
        extension: record.name,
        cause: error,
      }), ErrorCodes.START_FAILED, 'startup');
    }
  }

  /**
   * Reads a serving extension's contributions again (it said they changed):
   * all or nothing, so a re-read that throws or is invalid keeps what is
   * served and is reported. Returns whether the new ones are served.
   */
  reread(record: ExtensionRecord): boolean {
    if (record.state !== 'active' || !record.instance || !record.contributions) return false;
    let fresh: Contributions;
    try {
      fresh = readContributions(record.instance, record.name, record.declaredToolsets, (error, code, subject) => this.report(record, error, code, 'activation', subject));
    } catch (error) {
      this.report(record, error, ErrorCodes.CONTRIBUTION_FAILED, 'activation');
      return false;
    }
    record.contributions = fresh;
    record.declaredToolsets = fresh.toolsets;
    record.logger.info({ tools: fresh.tools.length }, 'contributions read again');
    this.ctx.changed();
    return true;
  }

  /** Runs `onStop` of every started extension, in reverse order. */
  async stopAll(): Promise<void> {
    for (const record of [...this.records].reverse()) await this.stopOne(record);
  }

  private async stopOne(record: ExtensionRecord): Promise<void> {
    this.startTokens.delete(record);
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
    record.failure = error;
    record.contributions = undefined;
    this.startTokens.delete(record);
    this.report(record, error, code, phase);
  }

  report(record: ExtensionRecord, error: unknown, code: Parameters<ProblemLog['addError']>[1], phase: 'startup' | 'activation' | 'shutdown', subject?: string): void {
    this.ctx.problems.reportError(record.logger, error, code, phase, { extension: record.name, ...(subject === undefined ? {} : { subject }) });
  }
}

/** The events `record` waits on now: a held extension's activation events, an active one's deactivation events. */
function listenedBy(record: ExtensionRecord): readonly string[] | undefined {
  if (record.disabled) return undefined;
  return record.state === 'held' ? record.manifest.activationEvents : record.state === 'active' ? record.manifest.deactivationEvents : undefined;
}
