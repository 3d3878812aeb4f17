/**
 * MCP task records in Redis (the host's `TaskStore`), so any replica answers
 * `tasks/get`, `tasks/update` and `tasks/cancel`, a cancel or an answer made
 * on one replica reaches the replica running the task, and a task's result
 * outlives the replica that produced it until its TTL.
 *
 * - One hash per task: `record` (the task as JSON), `owner` (compared whole
 *   on every read), `status`, `node` (the replica running it), `boot` (the
 *   incarnation of that replica's process running it) and `version`
 *   (every write is a compare-and-set on it, in Lua, so a cancel on one
 *   replica and a completion on another cannot overwrite each other, and a
 *   terminal task never changes again). It expires at the task's `expiresAt`.
 * - Sorted sets scored by expiry time count the live tasks of each owner and
 *   in total (the caps, checked and added to in one Lua script, so two
 *   replicas cannot overrun them together) and list each node's unfinished
 *   tasks; members past their score are trimmed on use and each set expires
 *   with its last member: nothing is left behind after the TTL.
 * - Every change is published (the task id) on one channel, heard on the
 *   change bus's subscriber connection; a replica with watchers of that task
 *   reads the record and tells them — that is how `tasks/cancel` and
 *   `tasks/update` reach the replica running the work.
 * - The reaper: every heartbeat interval, each replica looks at the nodes
 *   with unfinished tasks; when one's heartbeat (the session registry's) is
 *   gone, its unfinished tasks become `failed` with a message naming the node
 *   and the window — or, for a task the host marked `origin.retrySafe`, a live
 *   replica with an {@link RedisTaskStore.onReclaim} listener takes it over and
 *   runs it again. A replica restarted under the same node id keeps the
 *   same heartbeat, so its first reaper pass looks at its own unfinished
 *   tasks: those of an earlier boot ran in a process that no longer exists,
 *   and fail (or are taken over) the same way, saying the replica restarted.
 *   BullMQ's stalled-job detection would do the same job with a
 *   second Redis client (ioredis) and a second liveness clock beside the
 *   heartbeat every replica already keeps, and would run the work as a queue
 *   job detached from the request's selection, principal and middleware.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Logger, TaskAnswer, TaskCounts, TaskCreation, TaskLimits, TaskPatch, TaskRecord, TaskStore } from '@reactor/host';
import type { RedisConnection } from './eventStore.js';
import { allTasksKey, DEFAULT_KEY_PREFIX, nodeHeartbeatKey, nodeTasksKey, ownerTasksKey, taskKey, taskNodesKey, taskSignalsChannel } from './keys.js';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** This replica's name: the session registry's node id, whose heartbeat says it is alive. */
  readonly nodeId: string;
  /** Prefix of every key and channel. Default `reactor:mcp`. */
  readonly keyPrefix?: string;
  readonly logger: Logger;
  /** How often the reaper looks for tasks of stopped replicas, ms: the heartbeat interval. Default 1000. */
  readonly reapIntervalMs?: number;
  /** How long a heartbeat lasts, ms (named in the failure message). Default 3 × `reapIntervalMs`. */
  readonly heartbeatTtlMs?: number;
  /** The most records held, whatever the limits `create` is given. Default 10 000. */
  readonly maxTasks?: number;
}

/** Subscribes to a channel on an existing subscriber connection (the change bus's `listen`). */
export type RedisChannelListener = (channel: string, onMessage: (message: string) => void, onReconnect: () => void) => Promise<void>;

/** The JSON-RPC internal error: what a task whose replica stopped fails with. */
const INTERNAL_ERROR = -32603;

/** Task ids are the host's (signed tokens): anything else is answered as unknown without reaching Redis. */
const TASK_ID = /^[\w.:~+/=-]{1,256}$/;

/** How many times a write re-reads a record that changed under it. */
const WRITE_ATTEMPTS = 8;

function isTerminal(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * KEYS: task, owner set, all set, node set, nodes set.
 * ARGV: now, expiresAt, owner cap, total cap, taskId, record, owner, node, status, boot.
 * Answers {created|exists|owner|total, count}.
 */
const CREATE_SCRIPT = `
local function add(key, member, at)
  redis.call('ZADD', key, 'GT', at, member)
  redis.call('PEXPIREAT', key, redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2])
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists', 0} end
local mine = redis.call('ZCARD', KEYS[2])
if mine >= tonumber(ARGV[3]) then return {'owner', mine} end
local all = redis.call('ZCARD', KEYS[3])
if all >= tonumber(ARGV[4]) then return {'total', all} end
redis.call('HSET', KEYS[1], 'record', ARGV[6], 'owner', ARGV[7], 'node', ARGV[8], 'status', ARGV[9], 'boot', ARGV[10], 'version', '1')
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
add(KEYS[2], ARGV[5], ARGV[2])
add(KEYS[3], ARGV[5], ARGV[2])
if ARGV[9] ~= 'completed' and ARGV[9] ~= 'failed' and ARGV[9] ~= 'cancelled' then
  add(KEYS[4], ARGV[5], ARGV[2])
  add(KEYS[5], ARGV[8], ARGV[2])
end
return {'created', all + 1}
`;

/**
 * KEYS: task, the set of the node running it (as read), heartbeat to check (any key when none),
 * the set of the node taking it over, nodes set.
 * ARGV: version read, record, status, taskId, check heartbeat ('1': write only if it is gone),
 * node taking it over ('' when it stays where it is), that node's boot.
 * Answers written | gone | changed | terminal | alive.
 */
const WRITE_SCRIPT = `
local cur = redis.call('HMGET', KEYS[1], 'version', 'status')
if not cur[2] then return 'gone' end
if cur[1] ~= ARGV[1] then return 'changed' end
if cur[2] == 'completed' or cur[2] == 'failed' or cur[2] == 'cancelled' then return 'terminal' end
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[3]) == 1 then return 'alive' end
redis.call('HSET', KEYS[1], 'record', ARGV[2], 'status', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'version', 1)
if ARGV[3] == 'completed' or ARGV[3] == 'failed' or ARGV[3] == 'cancelled' then redis.call('ZREM', KEYS[2], ARGV[4]) end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'node', ARGV[6], 'boot', ARGV[7])
  redis.call('ZREM', KEYS[2], ARGV[4])
  local at = redis.call('PEXPIRETIME', KEYS[1])
  for _, key in ipairs({KEYS[4], KEYS[5]}) do
    redis.call('ZADD', key, 'GT', at, key == KEYS[4] and ARGV[4] or ARGV[6])
    redis.call('PEXPIREAT', key, redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2])
  end
end
return 'written'
`;

/** KEYS: nodes set, the node's set. ARGV: node, now. Forgets a node with no unfinished task left. */
const FORGET_NODE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('ZREM', KEYS[1], ARGV[1]) return 1 end
return 0
`;

/** KEYS: owner or all set. ARGV: now. Counts live members. */
const COUNT_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZCARD', KEYS[1])
`;

/** The digest of an owner key: a fixed-length name for its set. */
export function ownerDigest(owner: string): string {
  return createHash('sha256').update(owner).digest('hex').slice(0, 32);
}

/** One read of a task's hash. */
interface Snapshot {
  readonly record: TaskRecord;
  readonly owner: string;
  readonly node: string;
  /** The boot of the process running it (absent on a record written before boots were kept). */
  readonly boot: string | undefined;
  readonly version: string;
}

/** Why a write did not land. */
type WriteOutcome = 'written' | 'gone' | 'changed' | 'terminal' | 'alive';

/**
 * The host's `TaskStore` over Redis: pass it as `createMcpApp({ tasks: { store } })`
 * (the command does, with `--redis-url`). Call {@link start} once.
 */
export class RedisTaskStore implements TaskStore {
  readonly name = 'redis';
  readonly nodeId: string;
  /**
   * This process's incarnation of {@link nodeId}: a task's record names the
   * boot that runs it, so a replica restarted with the same node id (the same
   * heartbeat) knows the runs of its former process are gone.
   */
  readonly bootId = randomBytes(12).toString('base64url');
  private readonly prefix: string;
  private readonly logger: Logger;
  private readonly reapIntervalMs: number;
  private readonly heartbeatTtlMs: number;
  private readonly maxTasks: number;
  /** Watchers on this replica, by task id: as many as the host watches (tasks it runs, streams it serves). */
  private readonly watchers = new Map<string, Set<(record: TaskRecord) => void>>();
  /** Who runs a reclaimed task again on this replica (see {@link onReclaim}). */
  private readonly reclaimers = new Set<(record: TaskRecord) => void>();
  private timer: NodeJS.Timeout | undefined;
  private reaping: Promise<void> | undefined;
  /** Whether this process has failed (or taken over) the unfinished tasks of its node's earlier boots. */
  private formerRunsSettled = false;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisTaskStoreOptions,
  ) {
    this.nodeId = options.nodeId;
    this.prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.logger = options.logger;
    this.reapIntervalMs = options.reapIntervalMs ?? 1_000;
    this.heartbeatTtlMs = options.heartbeatTtlMs ?? this.reapIntervalMs * 3;
    this.maxTasks = options.maxTasks ?? 10_000;
    for (const [name, value] of [['reapIntervalMs', this.reapIntervalMs], ['heartbeatTtlMs', this.heartbeatTtlMs], ['maxTasks', this.maxTasks]] as const) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`@reactor/redis: RedisTaskStore needs ${name} to be a positive integer; received ${String(value)}`);
    }
  }

  /** The key of task `taskId` (for operators and tests). */
  keyOf(taskId: string): string {
    return taskKey(this.prefix, taskId);
  }

  /** Hears other replicas' changes on `listen` (the change bus's subscriber) and starts the reaper. Call once. */
  async start(listen: RedisChannelListener): Promise<void> {
    // After a reconnect, changes meanwhile were missed: watchers re-read their tasks.
    await listen(taskSignalsChannel(this.prefix), (message) => this.receive(message), () => {
      for (const taskId of this.watchers.keys()) void this.notify(taskId);
    });
    this.timer = setInterval(() => void this.reap(), this.reapIntervalMs);
    this.timer.unref();
    // A restart under the same node id: the former process's runs are settled before this one serves.
    await this.reap();
  }

  async create(record: TaskRecord, limits: TaskLimits): Promise<TaskCreation> {
    if (!TASK_ID.test(record.taskId)) throw new RangeError(`@reactor/redis: task id ${JSON.stringify(record.taskId.slice(0, 40))} is not one the host makes (up to 256 of A-Z a-z 0-9 _ . : ~ + / = -)`);
    // The work runs where the task is created: this node, whose heartbeat (the session registry's) the reaper watches.
    const node = this.nodeId;
    const stored = { ...record, node };
    const reply = (await this.redis.eval(CREATE_SCRIPT, {
      keys: [this.keyOf(record.taskId), ownerTasksKey(this.prefix, ownerDigest(record.owner)), allTasksKey(this.prefix), nodeTasksKey(this.prefix, node), taskNodesKey(this.prefix)],
      arguments: [String(Date.now()), String(Math.ceil(record.expiresAt)), String(limits.perOwner), String(Math.min(limits.total, this.maxTasks)), record.taskId, JSON.stringify(stored), record.owner, node, record.status, this.bootId],
    })) as [string, number];
    const [kind, count] = reply;
    if (kind === 'created') return { ok: true };
    if (kind === 'owner' || kind === 'total') return { ok: false, limit: kind, count: Number(count) };
    throw new Error(`@reactor/redis: task ${record.taskId} already exists in Redis (task ids are unique: is another service using key prefix "${this.prefix}"?)`);
  }

  async get(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const snapshot = await this.read(taskId);
    return snapshot?.owner === owner ? snapshot.record : undefined;
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    return await this.mutate(taskId, undefined, (record) => (isTerminal(record.status) ? undefined : applyPatch(record, patch)));
  }

  async answer(taskId: string, owner: string, inputResponses: Readonly<Record<string, unknown>>): Promise<TaskAnswer | undefined> {
    let waiting = true;
    const record = await this.mutate(taskId, owner, (current) => {
      waiting = current.status === 'input_required' && current.inputRequests !== undefined;
      if (!waiting) return undefined;
      const outstanding: Record<string, unknown> = { ...current.inputRequests };
      const answered: Record<string, unknown> = { ...current.inputResponses };
      for (const [key, value] of Object.entries(inputResponses)) {
        if (!Object.hasOwn(outstanding, key)) continue;
        delete outstanding[key];
        answered[key] = value;
      }
      return { ...current, inputRequests: outstanding, inputResponses: answered, lastUpdatedAt: Date.now() };
    });
    return record === undefined ? undefined : { outcome: waiting ? 'accepted' : 'not-waiting', record };
  }

  async cancel(taskId: string, owner: string, statusMessage?: string): Promise<TaskRecord | undefined> {
    return await this.mutate(taskId, owner, (record) => {
      if (isTerminal(record.status)) return undefined;
      const { inputRequests: _requests, inputResponses: _responses, ...rest } = record;
      return { ...rest, status: 'cancelled', statusMessage: statusMessage ?? 'The task was cancelled by its client (tasks/cancel).', lastUpdatedAt: Date.now() };
    });
  }

  watch(taskId: string, listener: (record: TaskRecord) => void): () => void {
    let set = this.watchers.get(taskId);
    if (!set) this.watchers.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.watchers.get(taskId) === set) this.watchers.delete(taskId);
    };
  }

  /**
   * Runs tasks again instead of failing them: when a replica stops while
   * running a task whose `origin.retrySafe` is `true` (the host sets it for a
   * tool that declares it is safe to run again), the first live replica with
   * a `listener` takes the task over — `working` again, recorded as its own —
   * and calls `listener` with the record, to run `origin` again. Without a
   * listener, such a task fails like any other.
   */
  onReclaim(listener: (record: TaskRecord) => void): () => void {
    this.reclaimers.add(listener);
    return () => void this.reclaimers.delete(listener);
  }

  async counts(): Promise<TaskCounts> {
    const now = String(Date.now());
    const total = Number(await this.redis.eval(COUNT_SCRIPT, { keys: [allTasksKey(this.prefix)], arguments: [now] }));
    const nodes = await this.redis.zRange(taskNodesKey(this.prefix), 0, -1);
    let active = 0;
    for (const node of nodes) active += Number(await this.redis.eval(COUNT_SCRIPT, { keys: [nodeTasksKey(this.prefix, node)], arguments: [now] }));
    return { total, active };
  }

  /** Stops the reaper and forgets watchers (the records stay until their TTL; the connection is the caller's). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.watchers.clear();
    await this.reaping;
  }

  /**
   * One pass of the reaper (it runs every `reapIntervalMs`, and once in
   * {@link start}; exposed for tests and benchmarks): the unfinished tasks of
   * every node whose heartbeat is gone become `failed`, naming the node; on
   * the first pass, so do this node's own tasks of an earlier boot (a
   * restart under the same node id), saying it restarted.
   */
  async reap(): Promise<void> {
    if (this.reaping) return await this.reaping;
    this.reaping = this.reapOnce()
      .catch((error: unknown) => this.logger.warn({ node: this.nodeId }, `looking for tasks of stopped replicas failed (${error instanceof Error ? error.message : String(error)}); retrying in ${this.reapIntervalMs} ms`))
      .finally(() => (this.reaping = undefined));
    return await this.reaping;
  }

  private async reapOnce(): Promise<void> {
    if (!this.redis.isReady) return;
    const nodesKey = taskNodesKey(this.prefix);
    const now = Date.now();
    await this.redis.zRemRangeByScore(nodesKey, '-inf', now);
    if (!this.formerRunsSettled) {
      // Tasks of this node id that an earlier process ran: its heartbeat is this one's now, so only the boot tells.
      const mine = nodeTasksKey(this.prefix, this.nodeId);
      await this.redis.zRemRangeByScore(mine, '-inf', now);
      for (const taskId of await this.redis.zRange(mine, 0, -1)) await this.fail(taskId, this.nodeId, undefined);
      this.formerRunsSettled = true;
    }
    for (const node of await this.redis.zRange(nodesKey, 0, -1)) {
      if (node === this.nodeId) continue;
      const heartbeat = nodeHeartbeatKey(this.prefix, node);
      if ((await this.redis.exists(heartbeat)) === 1) continue;
      const setKey = nodeTasksKey(this.prefix, node);
      await this.redis.zRemRangeByScore(setKey, '-inf', now);
      for (const taskId of await this.redis.zRange(setKey, 0, -1)) await this.fail(taskId, node, heartbeat);
      await this.redis.eval(FORGET_NODE_SCRIPT, { keys: [nodesKey, setKey], arguments: [node, String(Date.now())] });
    }
  }

  /**
   * Fails `taskId` because its node `dead` stopped: only while its heartbeat
   * `heartbeat` is still gone — or, with no heartbeat (`dead` is this node),
   * only when the task's run belongs to an earlier boot of this node.
   */
  private async fail(taskId: string, dead: string, heartbeat: string | undefined): Promise<void> {
    const seconds = Number((this.heartbeatTtlMs / 1000).toFixed(2));
    const restarted = heartbeat === undefined;
    const message = restarted
      ? `the replica ${dead} running this task restarted, and the run ended with its former process; run it again`
      : `the replica ${dead} running this task stopped (no heartbeat for ${seconds} s); run it again`;
    let outcome: WriteOutcome = 'changed';
    for (let attempt = 0; attempt < WRITE_ATTEMPTS && outcome === 'changed'; attempt++) {
      const snapshot = await this.read(taskId);
      if (!snapshot || snapshot.node !== dead || isTerminal(snapshot.record.status)) {
        // Finished, expired, or run elsewhere now: no longer the dead node's.
        await this.redis.zRem(nodeTasksKey(this.prefix, dead), taskId);
        return;
      }
      // This process's own run (created or taken over since it started): alive.
      if (restarted && snapshot.boot === this.bootId) return;
      const { inputRequests: _requests, inputResponses: _responses, ...rest } = snapshot.record;
      if (snapshot.record.origin?.['retrySafe'] === true && this.reclaimers.size > 0) {
        const again: TaskRecord = { ...rest, status: 'working', node: this.nodeId, statusMessage: `the replica ${dead} running this task ${restarted ? 'restarted' : 'stopped'}; running it again on ${this.nodeId}`, lastUpdatedAt: Date.now() };
        outcome = await this.write(snapshot, again, heartbeat, true);
        if (outcome === 'written') {
          this.logger.warn({ task: taskId, node: dead }, `task ${taskId} was running on replica ${dead}, which stopped; its tool is safe to run again, so ${this.nodeId} runs it again`);
          await this.publish(taskId, again);
          for (const reclaim of [...this.reclaimers]) reclaim(again);
          return;
        }
        continue;
      }
      const failed: TaskRecord = { ...rest, status: 'failed', statusMessage: message, error: { code: INTERNAL_ERROR, message }, lastUpdatedAt: Date.now() };
      outcome = await this.write(snapshot, failed, heartbeat);
    }
    if (outcome === 'written') {
      this.logger.warn({ task: taskId, node: dead }, `task ${taskId} failed: ${message}`);
      await this.publish(taskId);
    }
  }

  /** The hash of `taskId`, or undefined (unknown, expired, or an id the host never makes). */
  private async read(taskId: string): Promise<Snapshot | undefined> {
    if (!TASK_ID.test(taskId)) return undefined;
    const [raw, owner, node, version, boot] = await this.redis.hmGet(this.keyOf(taskId), ['record', 'owner', 'node', 'version', 'boot']);
    if (raw == null || owner == null || node == null || version == null) return undefined;
    const record = parseRecord(raw);
    if (!record || record.expiresAt <= Date.now()) return undefined;
    return { record, owner, node, version, boot: boot ?? undefined };
  }

  /** Compare-and-set of `snapshot`'s task to `record` (only while the heartbeat `heartbeat` is gone, when given; moved to this node with `takeOver`). */
  private async write(snapshot: Snapshot, record: TaskRecord, heartbeat?: string, takeOver = false): Promise<WriteOutcome> {
    return (await this.redis.eval(WRITE_SCRIPT, {
      keys: [this.keyOf(record.taskId), nodeTasksKey(this.prefix, snapshot.node), heartbeat ?? this.keyOf(record.taskId), nodeTasksKey(this.prefix, this.nodeId), taskNodesKey(this.prefix)],
      arguments: [snapshot.version, JSON.stringify(record), record.status, record.taskId, heartbeat === undefined ? '0' : '1', takeOver ? this.nodeId : '', this.bootId],
    })) as WriteOutcome;
  }

  /**
   * Reads, changes (with `change`; undefined leaves it) and writes task
   * `taskId`, again while another replica changed it meanwhile. Answers the
   * record as it now is; undefined when gone or not `owner`'s (when given).
   */
  private async mutate(taskId: string, owner: string | undefined, change: (record: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const snapshot = await this.read(taskId);
      if (!snapshot || (owner !== undefined && snapshot.owner !== owner)) return undefined;
      const next = change(snapshot.record);
      if (!next) return snapshot.record;
      const outcome = await this.write(snapshot, next);
      if (outcome === 'gone') return undefined;
      if (outcome === 'written') {
        await this.publish(taskId, next);
        return next;
      }
      // changed (or terminal, re-read to answer it as it is): read again.
    }
    throw new Error(`@reactor/redis: task ${taskId} changed under ${WRITE_ATTEMPTS} writes in a row; try again`);
  }

  /** Tells this replica's watchers (with `record` when known) and the other replicas that `taskId` changed. */
  private async publish(taskId: string, record?: TaskRecord): Promise<void> {
    if (record) this.deliver(record);
    else await this.notify(taskId);
    await this.redis.publish(taskSignalsChannel(this.prefix), JSON.stringify({ origin: this.nodeId, taskId })).catch((error: unknown) => {
      this.logger.warn({ task: taskId }, `telling other replicas that task ${taskId} changed failed (${error instanceof Error ? error.message : String(error)}); they see it on their next read`);
    });
  }

  private receive(raw: string): void {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    const { origin, taskId } = (message ?? {}) as { origin?: unknown; taskId?: unknown };
    if (origin === this.nodeId || typeof taskId !== 'string' || !this.watchers.has(taskId)) return;
    void this.notify(taskId);
  }

  /** Reads `taskId` and tells its watchers on this replica. */
  private async notify(taskId: string): Promise<void> {
    if (!this.watchers.has(taskId)) return;
    try {
      const snapshot = await this.read(taskId);
      if (snapshot) this.deliver(snapshot.record);
    } catch (error) {
      this.logger.warn({ task: taskId }, `reading task ${taskId} after a change failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private deliver(record: TaskRecord): void {
    for (const listener of [...(this.watchers.get(record.taskId) ?? [])]) {
      try {
        listener(record);
      } catch (error) {
        this.logger.error({ task: record.taskId }, `a watcher of task ${record.taskId} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

/** `record` with `patch` applied, as the host's memory store applies it. */
function applyPatch(record: TaskRecord, patch: TaskPatch): TaskRecord {
  const next: Record<string, unknown> = { ...record, lastUpdatedAt: Date.now() };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  if (patch.status !== undefined && isTerminal(patch.status)) {
    delete next['inputRequests'];
    delete next['inputResponses'];
  }
  return next as unknown as TaskRecord;
}

function parseRecord(raw: string): TaskRecord | undefined {
  try {
    const value = JSON.parse(raw) as Partial<TaskRecord> | null;
    return typeof value === 'object' && value !== null && typeof value.taskId === 'string' && typeof value.status === 'string' && typeof value.expiresAt === 'number' ? (value as TaskRecord) : undefined;
  } catch {
    return undefined;
  }
}
