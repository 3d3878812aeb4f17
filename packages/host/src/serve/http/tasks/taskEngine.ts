/**
 * The tasks engine of one HTTP app (2026-07-28, `io.modelcontextprotocol/tasks`):
 * signs task ids, keeps records in the {@link TaskStore}, runs each task's work
 * on this node and answers `tasks/get`, `tasks/update` and `tasks/cancel`.
 *
 * A task's work is the call itself, round by round, through the same path a
 * `tools/call` takes (middleware, tool extensions, handler), with the call's
 * selection, tenant and principal; only its signal is the task's (aborted by
 * `tasks/cancel`, wherever the store says it was made, and at its TTL) and its
 * progress notifications become the task's `statusMessage`. A round that
 * answers `inputRequired(...)` parks the task in `input_required` with those
 * requests (keys made unique per round: `<round>.<key>`); once `tasks/update`
 * has answered every one, the next round runs with the answers as
 * `ctx.mcpReq.inputResponses` and the sealed `requestState`.
 *
 * Every record is its owner's (principal and tenant): anyone else's
 * `tasks/get`, `tasks/update` or `tasks/cancel` is answered as for an unknown
 * task. Ids are `<random>.<HMAC>`: a tampered or made-up id is refused before
 * the store is asked.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, type AuthInfo, type ServerContext } from '@modelcontextprotocol/server';
import { errorMessage } from '../../../kernel/errors.js';
import type { Logger } from '../../../kernel/logger.js';
import { principalOf } from '../../../kernel/principal.js';
import { MAX_TIMER_MS } from '../../../kernel/timeLimit.js';
import { selectionToQuery } from '../../../selection/selection.js';
import type { TaskReporter } from '../../../contract/task.js';
import type { ConnectionInfo } from '../../../host/build/blueprint.js';
import { missingTasksCapability, taskErrorOf, type TaskCall, type TaskRuntime } from '../../../host/mint/tasks.js';
import { JsonRpcCodes } from '../jsonRpc.js';
import { createMemoryTaskStore } from './memoryTaskStore.js';
import { StatusWriter } from './statusWriter.js';
import { ListenSlots, MAX_LISTEN_TASK_IDS, openTaskListen } from './taskListen.js';
import { isTerminalStatus, type McpAppTaskOptions, type TaskRecord, type TaskStore } from './taskStore.js';

const DEFAULT_TTL_MS = 60 * 60 * 1000;
const DEFAULT_POLL_MS = 1000;
const DEFAULT_PER_PRINCIPAL = 100;
const DEFAULT_TOTAL = 10_000;
/** The largest result a task keeps by default (its JSON, in bytes): 1 MiB. */
const DEFAULT_MAX_RESULT_BYTES = 1024 * 1024;
const MIN_SECRET_BYTES = 32;
/** The longest `statusMessage` kept (a progress message is the tool's text). */
const MAX_STATUS_MESSAGE = 1000;
/** The JSON-RPC code a refused task creation carries (a cap reached): implementation-defined server error. */
export const TASK_LIMIT_CODE = -32000;
const NOT_FOUND = 'Failed to retrieve task: Task not found';
/** Most `notifications/tasks` listen streams open on one node. */
export const MAX_TASK_LISTENS = 1024;
/** Most such streams one (authenticated) principal may hold on one node: a quarter, so one caller cannot take them all. */
export const MAX_TASK_LISTENS_PER_PRINCIPAL = 256;

/** The resolved `tasks` option. */
export interface TaskSettings {
  readonly store: TaskStore;
  readonly secret: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly maxPerPrincipal: number;
  readonly maxTotal: number;
  readonly maxResultBytes: number;
  /** Whether `secret` was given (option or environment): a random one breaks ids across replicas. */
  readonly sharedSecret: boolean;
}

/** Resolves `createMcpApp`'s `tasks` option (validated), reading `REACTOR_TASKS_SECRET` when no secret is given. */
export function resolveTaskSettings(options: McpAppTaskOptions, env: NodeJS.ProcessEnv = process.env, invalid: (option: string, problem: string, received: unknown, expected: string) => Error): TaskSettings {
  const positive = (name: keyof McpAppTaskOptions, value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max) throw invalid(`tasks.${name}`, 'is not a positive whole number in range', value, `a whole number from 1 to ${max}`);
    return value;
  };
  const given = options.secret ?? env.REACTOR_TASKS_SECRET;
  if (given !== undefined && (typeof given !== 'string' || Buffer.byteLength(given) < MIN_SECRET_BYTES)) {
    throw invalid(options.secret !== undefined ? 'tasks.secret' : 'tasks.secret (REACTOR_TASKS_SECRET)', `is shorter than ${MIN_SECRET_BYTES} bytes`, typeof given === 'string' ? `${Buffer.byteLength(given)} bytes` : given, `a random string of at least ${MIN_SECRET_BYTES} bytes, the same on every replica`);
  }
  const store = options.store ?? createMemoryTaskStore();
  const methods = ['create', 'get', 'update', 'answer', 'cancel', 'watch', 'counts', 'close'] as const;
  if (typeof store !== 'object' || store === null || typeof store.name !== 'string' || !methods.every((m) => typeof store[m] === 'function')) {
    throw invalid('tasks.store', 'is not a task store', store, `an object with a name and ${methods.join(', ')} (createMemoryTaskStore(), or @reactor/redis's)`);
  }
  return {
    store,
    secret: given ?? randomBytes(32).toString('base64url'),
    sharedSecret: given !== undefined,
    // A task's TTL is a timer on the node that runs it: past MAX_TIMER_MS (~24.8 days) a timer fires at once.
    ttlMs: positive('ttlMs', options.ttlMs, DEFAULT_TTL_MS, MAX_TIMER_MS),
    pollIntervalMs: positive('pollIntervalMs', options.pollIntervalMs, DEFAULT_POLL_MS, MAX_TIMER_MS),
    maxPerPrincipal: positive('maxPerPrincipal', options.maxPerPrincipal, DEFAULT_PER_PRINCIPAL),
    maxTotal: positive('maxTotal', options.maxTotal, DEFAULT_TOTAL),
    maxResultBytes: positive('maxResultBytes', options.maxResultBytes, DEFAULT_MAX_RESULT_BYTES),
  };
}

/** A task this node runs. */
interface Run {
  readonly taskId: string;
  readonly call: TaskCall;
  readonly controller: AbortController;
  round: number;
  /** The sealed requestState of the round that asked for input. */
  requestState: string | undefined;
  /** `running` a round, `waiting` for answers, `done`. */
  phase: 'running' | 'waiting' | 'done';
  /** The current round's status writes (coalesced; drained before the task's next state is written). */
  status: StatusWriter | undefined;
  stop(): void;
}

/** The tasks engine: a {@link TaskRuntime} over a store. */
export class TaskEngine implements TaskRuntime {
  private readonly runs = new Map<string, Run>();
  /** The open `notifications/tasks` streams, bounded in total and per principal. */
  private readonly listens = new ListenSlots(MAX_TASK_LISTENS, MAX_TASK_LISTENS_PER_PRINCIPAL);
  private closed = false;

  constructor(
    readonly settings: TaskSettings,
    private readonly logger: Logger,
    private readonly nodeId: string | undefined,
  ) {}

  /** The store's name, for `/healthz`. */
  get storeName(): string {
    return this.settings.store.name;
  }

  /** How many tasks this node runs now. */
  get running(): number {
    return this.runs.size;
  }

  // ---- ids -----------------------------------------------------------------

  private sign(nonce: string): string {
    return createHmac('sha256', this.settings.secret).update(`reactor-task:${nonce}`).digest('base64url').slice(0, 32);
  }

  private newTaskId(): string {
    const nonce = randomBytes(18).toString('base64url');
    return `${nonce}.${this.sign(nonce)}`;
  }

  /** True when `taskId` is one this engine (or a replica sharing its secret) signed. */
  verifies(taskId: string): boolean {
    const dot = taskId.indexOf('.');
    if (dot <= 0 || dot !== taskId.lastIndexOf('.')) return false;
    const expected = Buffer.from(this.sign(taskId.slice(0, dot)));
    const given = Buffer.from(taskId.slice(dot + 1));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  // ---- the protocol --------------------------------------------------------

  async start(call: TaskCall): Promise<Record<string, unknown>> {
    if (this.closed) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The server is shutting down and starts no new task; retry on another replica');
    const { store, ttlMs, pollIntervalMs, maxPerPrincipal, maxTotal } = this.settings;
    const now = Date.now();
    const taskId = this.newTaskId();
    const owner = ownerOf(call.ctx, call.connection);
    const record: TaskRecord = {
      taskId,
      owner,
      status: 'working',
      statusMessage: `Tool "${call.tool.name}" is running.`,
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      expiresAt: now + ttlMs,
      pollIntervalMs,
      ...(this.nodeId === undefined ? {} : { node: this.nodeId }),
      origin: {
        tool: call.request.params.name,
        arguments: call.request.params.arguments ?? {},
        selection: selectionToQuery(call.connection.selection),
        ...(call.connection.tenant === undefined ? {} : { tenant: call.connection.tenant }),
        ...(call.tool.spec.annotations?.idempotentHint === true ? { retrySafe: true } : {}),
      },
    };
    // Anonymous callers (no verified token) are no one in particular: they share one owner key, so a cap per
    // principal would let one of them exhaust it for all. Only the total cap bounds them (their task ids, 144
    // random bits signed, are what keeps one anonymous caller's tasks from another's).
    const anonymous = principalOf(call.ctx.http?.authInfo) === undefined;
    const created = await store.create(record, { perOwner: anonymous ? Number.MAX_SAFE_INTEGER : maxPerPrincipal, total: maxTotal });
    if (!created.ok) {
      const which = created.limit === 'owner' ? `this principal already holds ${created.count} live tasks (at most ${maxPerPrincipal})` : `the server holds ${created.count} live tasks (at most ${maxTotal})`;
      // A finished task is held (and counted) until its TTL, for the client to read its result.
      throw new ProtocolError(TASK_LIMIT_CODE, `Task limit reached: tool "${call.tool.name}" was not started because ${which}; a task counts until its TTL ends, finished or not: wait for tasks to expire, cancel running ones with tasks/cancel, or raise the limit (createMcpApp's tasks.maxPerPrincipal / tasks.maxTotal)`, {
        reason: 'task_limit',
        limit: created.limit === 'owner' ? 'principal' : 'total',
        max: created.limit === 'owner' ? maxPerPrincipal : maxTotal,
      });
    }
    this.begin(record, call);
    return { resultType: 'task', ...wireTask(record) };
  }

  async get(taskId: string, ctx: ServerContext, connection: ConnectionInfo): Promise<Record<string, unknown>> {
    const record = await this.find(taskId, ctx, connection);
    return { resultType: 'complete', ...detailedTask(record) };
  }

  async update(taskId: string, inputResponses: Record<string, unknown>, ctx: ServerContext, connection: ConnectionInfo): Promise<Record<string, unknown>> {
    const owner = this.checkedOwner(taskId, ctx, connection);
    const answered = await this.settings.store.answer(taskId, owner, inputResponses);
    if (!answered) throw notFound();
    if (answered.outcome === 'not-waiting') {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Task ${taskId} is not waiting for input (its status is "${answered.record.status}"); tasks/update answers the inputRequests of a task in "input_required" — poll tasks/get`,
        { reason: 'not_waiting_for_input', status: answered.record.status },
      );
    }
    return { resultType: 'complete' };
  }

  async cancel(taskId: string, ctx: ServerContext, connection: ConnectionInfo): Promise<Record<string, unknown>> {
    const owner = this.checkedOwner(taskId, ctx, connection);
    const record = await this.settings.store.cancel(taskId, owner);
    if (!record) throw notFound();
    return { resultType: 'complete' };
  }

  /**
   * A 2026-07-28 `subscriptions/listen` whose filter names `taskIds`: the
   * `notifications/tasks` stream of those of the caller's tasks (see
   * `taskListen.ts`). `declared`: whether the request declares the extension.
   */
  async listen(id: string | number, taskIds: unknown, declared: boolean, tenant: string | undefined, authInfo: AuthInfo | undefined, signal: AbortSignal | undefined): Promise<Response> {
    const refuse = (code: number, message: string, data?: unknown) => Response.json({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } }, { headers: { 'cache-control': 'no-store' } });
    if (!declared) {
      const error = missingTasksCapability('subscriptions/listen with notifications.taskIds');
      return refuse(error.code, error.message, error.data);
    }
    if (!Array.isArray(taskIds) || taskIds.length > MAX_LISTEN_TASK_IDS || !taskIds.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 512)) {
      return refuse(ProtocolErrorCode.InvalidParams, `Invalid params: notifications.taskIds must be a list of at most ${MAX_LISTEN_TASK_IDS} task ids (strings from CreateTaskResult.taskId)`);
    }
    if (this.closed) return refuse(JsonRpcCodes.INTERNAL_ERROR, 'The server is shutting down and opens no new notifications/tasks stream; poll tasks/get on another replica');
    const owner = ownerKey(tenant, authInfo);
    // Reserved before any await: listens arriving together cannot all pass the check.
    const slot = this.listens.reserve(principalOf(authInfo) === undefined ? undefined : owner);
    if ('refused' in slot) {
      const which = slot.refused === 'owner' ? `this principal holds ${slot.count} notifications/tasks streams on this replica (at most ${MAX_TASK_LISTENS_PER_PRINCIPAL})` : `this replica holds ${slot.count} notifications/tasks streams (at most ${MAX_TASK_LISTENS})`;
      return refuse(JsonRpcCodes.INTERNAL_ERROR, `Subscription limit reached: ${which}; close a stream you no longer read, poll tasks/get instead, or retry later`, { reason: 'listen_limit', limit: slot.refused === 'owner' ? 'principal' : 'total' });
    }
    const source = { store: this.settings.store, verifies: (taskId: string) => this.verifies(taskId), detailed: detailedTask };
    return await openTaskListen(source, id, taskIds as string[], owner, this.listens, slot, signal);
  }

  /** Stops every run on this node (their records are left to the store's TTL) and closes the store. */
  async close(): Promise<void> {
    this.closed = true;
    this.listens.closeAll();
    for (const run of [...this.runs.values()]) {
      run.controller.abort(new Error('the server is shutting down'));
      run.stop();
    }
    await this.settings.store.close();
  }

  // ---- running -------------------------------------------------------------

  private checkedOwner(taskId: string, ctx: ServerContext, connection: ConnectionInfo): string {
    if (!this.verifies(taskId)) throw notFound();
    return ownerOf(ctx, connection);
  }

  private async find(taskId: string, ctx: ServerContext, connection: ConnectionInfo): Promise<TaskRecord> {
    const record = await this.settings.store.get(taskId, this.checkedOwner(taskId, ctx, connection));
    if (!record) throw notFound();
    return record;
  }

  private begin(record: TaskRecord, call: TaskCall): void {
    const controller = new AbortController();
    // At its TTL the record is gone from the store: the work stops and the run is let go of here too
    // (a task parked in input_required would otherwise hold its run, watcher and context for good).
    const ttl = setTimeout(() => {
      run.phase = 'done';
      controller.abort(new Error(`task ${record.taskId} reached its TTL (${record.ttlMs} ms)`));
      run.stop();
    }, Math.max(0, record.expiresAt - Date.now()));
    ttl.unref();
    const run: Run = {
      taskId: record.taskId,
      call,
      controller,
      round: 0,
      requestState: undefined,
      phase: 'running',
      status: undefined,
      stop: () => {
        run.status?.stop();
        clearTimeout(ttl);
        unwatch();
        this.runs.delete(record.taskId);
      },
    };
    const unwatch = this.settings.store.watch(record.taskId, (next) => this.changed(run, next));
    this.runs.set(record.taskId, run);
    // The first round is the call as it came (a multi-round-trip retry's answers and requestState included).
    void this.round(run, call.ctx.mcpReq.inputResponses, call.ctx.mcpReq.requestState);
  }

  /** A change to a task this node runs, made here or on another node. */
  private changed(run: Run, record: TaskRecord): void {
    if (run.phase === 'done') return;
    if (record.status === 'cancelled') {
      run.phase = 'done';
      run.controller.abort(new Error(record.statusMessage ?? 'the task was cancelled'));
      run.stop();
      return;
    }
    if (isTerminalStatus(record.status)) {
      run.phase = 'done';
      run.stop();
      return;
    }
    if (run.phase === 'waiting' && record.status === 'input_required' && record.inputRequests !== undefined && Object.keys(record.inputRequests).length === 0 && record.inputResponses !== undefined) {
      run.phase = 'running';
      const prefix = `${run.round}.`;
      const answers: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(record.inputResponses)) if (key.startsWith(prefix)) answers[key.slice(prefix.length)] = value;
      void this.settings.store
        .update(run.taskId, { status: 'working', statusMessage: 'Input received; the task goes on.', inputRequests: null, inputResponses: null })
        .then((stored) => {
          // A cancel (or the TTL) that landed between the answer and this write leaves the record
          // terminal (or gone): the task is over, and its handler must not run another round.
          if (stored?.status !== 'working') {
            this.settle(run, stored);
            return;
          }
          return this.round(run, answers, (() => run.requestState) as ServerContext['mcpReq']['requestState']);
        })
        .catch((error: unknown) => this.fail(run, error));
    }
  }

  /** Ends `run` without another round: the store says its task is terminal (or gone). */
  private settle(run: Run, record: TaskRecord | undefined): void {
    if (run.phase !== 'done') {
      run.phase = 'done';
      run.controller.abort(new Error(record?.statusMessage ?? `task ${run.taskId} is ${record ? record.status : 'gone'}`));
    }
    run.stop();
  }

  /** Runs one round of the call and records what it answered. */
  private async round(run: Run, inputResponses: Record<string, unknown> | undefined, requestState: ServerContext['mcpReq']['requestState']): Promise<void> {
    // Cancelled (or past its TTL) before this round began: no more of the handler runs.
    if (isOver(run)) {
      run.stop();
      return;
    }
    run.round++;
    const { store } = this.settings;
    try {
      const answer = await run.call.run(this.roundContext(run, inputResponses, requestState));
      if (isOver(run)) {
        run.stop();
        return;
      }
      if (isInputRequiredResult(answer)) {
        const { inputRequests, requestState } = answer as { inputRequests?: Record<string, unknown>; requestState?: string };
        const keyed: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(inputRequests ?? {})) keyed[`${run.round}.${key}`] = value;
        run.requestState = requestState;
        await run.status?.drain();
        if (isOver(run)) return run.stop();
        run.phase = 'waiting';
        const stored = await store.update(run.taskId, { status: 'input_required', statusMessage: 'Waiting for input: answer the inputRequests with tasks/update.', inputRequests: keyed, inputResponses: null });
        // Answered (elsewhere) before this node got to watch: go on now.
        if (stored) this.changed(run, stored);
        return;
      }
      // The task's result is what the request itself would have returned: a 2026-07-28
      // tools/call answers with `resultType: 'complete'`, and clients (ext-tasks) check it.
      const result = { ...answer, resultType: 'complete' as const };
      const isError = (result as { isError?: unknown }).isError === true;
      // A record keeps its result until its TTL (on Redis, in memory there): one too large for it fails the task, saying so.
      const bytes = Buffer.byteLength(JSON.stringify(result));
      const { maxResultBytes } = this.settings;
      if (bytes > maxResultBytes) {
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `Tool "${run.call.tool.name}" returned a result of ${bytes} bytes, more than a task keeps (${maxResultBytes} bytes, createMcpApp's tasks.maxResultBytes): return less (a resource link to the data, a page of it), or raise the limit`,
          { reason: 'result_too_large', bytes, max: maxResultBytes },
        );
      }
      // The last status the tool reported lands first: no status write is in flight once the terminal one is sent.
      await run.status?.drain();
      if (isOver(run)) return run.stop();
      await store.update(run.taskId, { status: 'completed', statusMessage: isError ? 'The tool reported an error (see result).' : 'The task completed.', result });
      // Done only once recorded: a store that refuses the write sends the task to fail() (recorded as failed), not left working.
      run.phase = 'done';
      run.stop();
    } catch (error) {
      await this.fail(run, error);
    }
  }

  private async fail(run: Run, error: unknown): Promise<void> {
    if (run.phase === 'done' && !run.controller.signal.aborted) return;
    const aborted = run.controller.signal.aborted;
    run.phase = 'done';
    if (!aborted) {
      await run.status?.drain();
      const taskError = taskErrorOf(error);
      this.logger.warn({ task: run.taskId, tool: run.call.tool.name, code: taskError.code }, `task ${run.taskId} (tool "${run.call.tool.name}") failed: ${errorMessage(error)}`);
      await this.settings.store.update(run.taskId, { status: 'failed', statusMessage: `Tool "${run.call.tool.name}" failed: ${taskError.message}`, error: taskError }).catch((e: unknown) => {
        this.logger.error({ task: run.taskId }, `recording the failure of task ${run.taskId} failed: ${errorMessage(e)}`);
      });
    }
    run.stop();
  }

  /**
   * The context of one round: the call's, with the task's signal, the round's
   * answers and requestState, `task` (its id and `status()`), and progress
   * notifications turned into the task's `statusMessage` (the request that
   * started the task is answered; nothing else goes to the client).
   */
  private roundContext(run: Run, inputResponses: Record<string, unknown> | undefined, requestState: ServerContext['mcpReq']['requestState']): ServerContext {
    const base = run.call.ctx;
    const writer = new StatusWriter(async (message) => {
      await this.settings.store.update(run.taskId, { statusMessage: message }).catch((error: unknown) => {
        this.logger.warn({ task: run.taskId }, `recording the status of task ${run.taskId} failed: ${errorMessage(error)}`);
      });
    });
    run.status?.stop();
    run.status = writer;
    const setStatus = (message: string) => {
      if (run.phase === 'done') return;
      writer.set(message.slice(0, MAX_STATUS_MESSAGE));
    };
    const task: TaskReporter = { taskId: run.taskId, status: setStatus };
    const mcpReq: Record<string, unknown> = Object.assign({}, base.mcpReq, {
      signal: run.controller.signal,
      inputResponses,
      requestState,
      notify: (notification: { method: string; params?: { message?: unknown; progress?: unknown; total?: unknown } }): Promise<void> => {
        if (notification.method !== 'notifications/progress') return Promise.resolve();
        const { message, progress, total } = notification.params ?? {};
        const count = (n: unknown) => (typeof n === 'number' ? String(n) : '?');
        setStatus(typeof message === 'string' ? message : `Progress: ${count(progress)}${total === undefined ? '' : ` of ${count(total)}`}`);
        return Promise.resolve();
      },
    });
    if (inputResponses === undefined) delete mcpReq['inputResponses'];
    return Object.assign({}, base, { mcpReq, task });
  }
}

/** True once `run` is over (done, or its signal aborted): no round may start or record anything. */
function isOver(run: Run): boolean {
  return run.phase === 'done' || run.controller.signal.aborted;
}

/** Whose task: the principal of the token and the tenant. */
function ownerOf(ctx: ServerContext, connection: ConnectionInfo): string {
  return ownerKey(connection.tenant, ctx.http?.authInfo);
}

function ownerKey(tenant: string | undefined, authInfo: AuthInfo | undefined): string {
  return JSON.stringify([tenant ?? null, principalOf(authInfo) ?? null]);
}

function notFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, NOT_FOUND);
}

/** The `Task` fields of a record, as on the wire. */
function wireTask(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** A `DetailedTask`: the task with its status's payload (`inputRequests`, `result` or `error`). */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const task = wireTask(record);
  if (record.status === 'input_required') task['inputRequests'] = record.inputRequests ?? {};
  if (record.status === 'completed' && record.result) task['result'] = record.result;
  if (record.status === 'failed' && record.error) task['error'] = record.error;
  return task;
}
