/**
 * The default task store: this process's memory. Bounded by the limits
 * `create` is given (and by `maxTasks`, whatever they say), each record gone
 * after its TTL (swept on use and by an unref'd timer). Tasks do not outlive
 * the process, and only this process answers for them: behind a balancer,
 * use a shared store.
 */
/* eslint-disable @typescript-eslint/require-await -- memory answers at once; the interface is async for shared stores */
import { isTerminalStatus, type TaskAnswer, type TaskCounts, type TaskCreation, type TaskLimits, type TaskPatch, type TaskRecord, type TaskStore } from './taskStore.js';

/** Options of {@link createMemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** The most records held, whatever the limits `create` is given. Default 10 000. */
  readonly maxTasks?: number;
  /** How often expired records are swept, in ms. Default 30 s. */
  readonly sweepIntervalMs?: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

const DEFAULT_MAX_TASKS = 10_000;
const DEFAULT_SWEEP_MS = 30_000;

/** A {@link TaskStore} in this process's memory: bounded, expired by TTL. */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  const now = options.now ?? Date.now;
  const maxTasks = Math.max(1, Math.floor(options.maxTasks ?? DEFAULT_MAX_TASKS));
  const records = new Map<string, TaskRecord>();
  const byOwner = new Map<string, Set<string>>();
  const watchers = new Map<string, Set<(record: TaskRecord) => void>>();
  const timer = setInterval(sweep, options.sweepIntervalMs ?? DEFAULT_SWEEP_MS);
  timer.unref();

  function drop(taskId: string): void {
    const record = records.get(taskId);
    if (!record) return;
    records.delete(taskId);
    const owned = byOwner.get(record.owner);
    owned?.delete(taskId);
    if (owned?.size === 0) byOwner.delete(record.owner);
  }

  function sweep(): void {
    const at = now();
    for (const [taskId, record] of records) if (record.expiresAt <= at) drop(taskId);
  }

  function live(taskId: string): TaskRecord | undefined {
    const record = records.get(taskId);
    if (record && record.expiresAt <= now()) {
      drop(taskId);
      return undefined;
    }
    return record;
  }

  function store(record: TaskRecord): TaskRecord {
    records.set(record.taskId, record);
    for (const listener of watchers.get(record.taskId) ?? []) {
      try {
        listener(record);
      } catch {
        // A watcher's failure is its own: the record is stored.
      }
    }
    return record;
  }

  return {
    name: 'memory',
    async create(record: TaskRecord, limits: TaskLimits): Promise<TaskCreation> {
      sweep();
      const owned = byOwner.get(record.owner)?.size ?? 0;
      if (owned >= limits.perOwner) return { ok: false, limit: 'owner', count: owned };
      const total = Math.min(limits.total, maxTasks);
      if (records.size >= total) return { ok: false, limit: 'total', count: records.size };
      records.set(record.taskId, record);
      let set = byOwner.get(record.owner);
      if (!set) byOwner.set(record.owner, (set = new Set()));
      set.add(record.taskId);
      return { ok: true };
    },
    async get(taskId, owner) {
      const record = live(taskId);
      return record?.owner === owner ? record : undefined;
    },
    async update(taskId: string, patch: TaskPatch) {
      const record = live(taskId);
      if (!record || isTerminalStatus(record.status)) return record;
      const next: Record<string, unknown> = { ...record, lastUpdatedAt: now() };
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        if (value === null) delete next[key];
        else next[key] = value;
      }
      // A terminal record keeps its result or error only.
      if (patch.status !== undefined && isTerminalStatus(patch.status)) {
        delete next['inputRequests'];
        delete next['inputResponses'];
      }
      return store(next as unknown as TaskRecord);
    },
    async answer(taskId, owner, inputResponses): Promise<TaskAnswer | undefined> {
      const record = live(taskId);
      if (record?.owner !== owner) return undefined;
      if (record.status !== 'input_required' || !record.inputRequests) return { outcome: 'not-waiting', record };
      const outstanding: Record<string, unknown> = { ...record.inputRequests };
      const answered: Record<string, unknown> = { ...record.inputResponses };
      for (const [key, value] of Object.entries(inputResponses)) {
        if (!Object.hasOwn(outstanding, key)) continue;
        delete outstanding[key];
        answered[key] = value;
      }
      return { outcome: 'accepted', record: store({ ...record, inputRequests: outstanding, inputResponses: answered, lastUpdatedAt: now() }) };
    },
    async cancel(taskId, owner, statusMessage) {
      const record = live(taskId);
      if (record?.owner !== owner) return undefined;
      if (isTerminalStatus(record.status)) return record;
      const { inputRequests: _requests, inputResponses: _responses, ...rest } = record;
      return store({ ...rest, status: 'cancelled', statusMessage: statusMessage ?? 'The task was cancelled by its client (tasks/cancel).', lastUpdatedAt: now() });
    },
    watch(taskId, listener) {
      let set = watchers.get(taskId);
      if (!set) watchers.set(taskId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && watchers.get(taskId) === set) watchers.delete(taskId);
      };
    },
    async counts(): Promise<TaskCounts> {
      sweep();
      let active = 0;
      for (const record of records.values()) if (!isTerminalStatus(record.status)) active++;
      return { total: records.size, active };
    },
    async close() {
      clearInterval(timer);
      watchers.clear();
    },
  };
}
