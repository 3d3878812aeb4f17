/**
 * `notifications/tasks` (2026-07-28, `io.modelcontextprotocol/tasks`): a
 * `subscriptions/listen` request whose filter names `taskIds` opens a stream
 * on which the host pushes each of those tasks' `DetailedTask` — what
 * `tasks/get` would answer at that moment — every time it changes.
 *
 * The SDK's listen router knows the four change types of the core protocol,
 * not the extension's `taskIds`; so the host answers such a listen itself:
 * - the caller must declare the extension in the request's client
 *   capabilities (else `-32021`, as the spec says);
 * - the ack (`notifications/subscriptions/acknowledged`) lists the task ids
 *   the host agreed to: only ids it signed and whose task the caller owns
 *   (another principal's task is left out, as if it did not exist). Other
 *   filter fields are not honored on this stream (the ack says so by leaving
 *   them out): open a second listen for them;
 * - right after the ack, each task's current state, then each change the
 *   store tells (`watch`: a change made on any replica sharing the store);
 * - once every task listed is terminal — or gone, its TTL past — the stream
 *   ends with the listen's empty result (the spec's graceful close).
 *
 * Streams are bounded per node and per principal ({@link ListenSlots}); a
 * slot is taken synchronously, before the first await, so listens arriving
 * together cannot overrun the caps.
 */
import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { MAX_TIMER_MS } from '../../../kernel/timeLimit.js';
import { isTerminalStatus, type TaskRecord, type TaskStore } from './taskStore.js';

/** Most task ids one listen may name. */
export const MAX_LISTEN_TASK_IDS = 100;
/** How often an idle stream sends an SSE comment, so proxies keep it open. */
const KEEP_ALIVE_MS = 15_000;

/** One stream's place among the open ones: taken before the stream opens, given back when it ends. */
export interface ListenSlot {
  readonly owner: string | undefined;
  /** Set once the stream is open: ends it gracefully. */
  close: (() => void) | undefined;
  /** True once {@link ListenSlots.closeAll} ran before the stream opened: it ends at once. */
  closing: boolean;
}

/**
 * The open `notifications/tasks` streams of one node, bounded in total and
 * per principal (an anonymous caller is no one in particular: the total
 * bounds it). {@link reserve} is synchronous, so concurrent listens cannot
 * all pass a check and then all open.
 */
export class ListenSlots {
  private readonly slots = new Set<ListenSlot>();
  private readonly perOwner = new Map<string, number>();

  constructor(
    readonly max: number,
    readonly maxPerOwner: number,
  ) {}

  /** Streams open (or opening) now. */
  get size(): number {
    return this.slots.size;
  }

  /** A slot for a stream of `owner` (`undefined`: anonymous), or which cap refuses it. */
  reserve(owner: string | undefined): ListenSlot | { readonly refused: 'total' | 'owner'; readonly count: number } {
    if (this.slots.size >= this.max) return { refused: 'total', count: this.slots.size };
    const mine = owner === undefined ? 0 : (this.perOwner.get(owner) ?? 0);
    if (owner !== undefined && mine >= this.maxPerOwner) return { refused: 'owner', count: mine };
    const slot: ListenSlot = { owner, close: undefined, closing: false };
    this.slots.add(slot);
    if (owner !== undefined) this.perOwner.set(owner, mine + 1);
    return slot;
  }

  /** Gives `slot` back (idempotent). */
  release(slot: ListenSlot): void {
    if (!this.slots.delete(slot) || slot.owner === undefined) return;
    const left = (this.perOwner.get(slot.owner) ?? 1) - 1;
    if (left <= 0) this.perOwner.delete(slot.owner);
    else this.perOwner.set(slot.owner, left);
  }

  /** Ends every open stream (and every one still opening, as soon as it opens). */
  closeAll(): void {
    for (const slot of [...this.slots]) {
      slot.closing = true;
      slot.close?.();
    }
  }
}

/** What a task listen stream needs of the engine. */
export interface TaskListenSource {
  readonly store: TaskStore;
  /** True when the id carries this host's signature. */
  verifies(taskId: string): boolean;
  /** The `DetailedTask` of a record, as `tasks/get` answers it. */
  detailed(record: TaskRecord): Record<string, unknown>;
}

/**
 * Opens the stream for `taskIds` (already validated: strings, at most
 * {@link MAX_LISTEN_TASK_IDS}) of `owner`, in the `slot` the caller reserved
 * in `slots` (given back when the stream ends, or when opening it fails);
 * `signal` ends the stream when the client goes.
 */
export async function openTaskListen(source: TaskListenSource, id: string | number, taskIds: readonly string[], owner: string, slots: ListenSlots, slot: ListenSlot, signal: AbortSignal | undefined): Promise<Response> {
  try {
    return await openIn(source, id, taskIds, owner, slots, slot, signal);
  } catch (error) {
    slots.release(slot);
    throw error;
  }
}

async function openIn(source: TaskListenSource, id: string | number, taskIds: readonly string[], owner: string, slots: ListenSlots, slot: ListenSlot, signal: AbortSignal | undefined): Promise<Response> {
  const { store } = source;
  const stamp = { [SUBSCRIPTION_ID_META_KEY]: id };
  const encoder = new TextEncoder();
  // Watch before reading, so no change falls between the read and the watch.
  const pending: TaskRecord[] = [];
  let deliver: (record: TaskRecord) => void = (record) => void pending.push(record);
  const unwatches: Array<() => void> = [];
  const wanted = [...new Set(taskIds)].filter((taskId) => source.verifies(taskId));
  for (const taskId of wanted) unwatches.push(store.watch(taskId, (record) => deliver(record)));
  let found: Array<TaskRecord | undefined>;
  try {
    found = await Promise.all(wanted.map((taskId) => store.get(taskId, owner)));
  } catch (error) {
    for (const unwatch of unwatches) unwatch();
    throw error;
  }
  const honored = found.filter((record): record is TaskRecord => record !== undefined);
  const ownedIds = new Set(honored.map((record) => record.taskId));
  // The newest state sent per task: a change told before the first read answered is not sent twice, nor an older state after a newer.
  const sent = new Map<string, number>();
  const terminal = new Set<string>();

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let keepAlive: NodeJS.Timeout | undefined;
  let expiry: NodeJS.Timeout | undefined;
  const write = (frame: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(frame));
    } catch {
      // The client is gone; teardown follows from cancel/abort.
    }
  };
  const message = (body: Record<string, unknown>) => write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...body })}\n\n`);
  const teardown = (graceful: boolean) => {
    if (closed) return;
    if (graceful) message({ id, result: { resultType: 'complete', _meta: stamp } });
    closed = true;
    for (const unwatch of unwatches) unwatch();
    if (keepAlive !== undefined) clearInterval(keepAlive);
    if (expiry !== undefined) clearTimeout(expiry);
    signal?.removeEventListener('abort', onAbort);
    slot.close = undefined;
    slots.release(slot);
    try {
      controller.close();
    } catch {
      // Already closed by the client.
    }
  };
  const close = () => teardown(true);
  const onAbort = () => teardown(false);
  const tell = (record: TaskRecord) => {
    if (closed || !ownedIds.has(record.taskId) || record.owner !== owner) return;
    const last = sent.get(record.taskId);
    if (last !== undefined && record.lastUpdatedAt < last) return;
    if (terminal.has(record.taskId)) return;
    sent.set(record.taskId, record.lastUpdatedAt);
    message({ method: 'notifications/tasks', params: { ...source.detailed(record), _meta: stamp } });
    if (isTerminalStatus(record.status)) terminal.add(record.taskId);
    if (terminal.size === ownedIds.size) teardown(true);
  };

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      message({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: honored.map((record) => record.taskId) }, _meta: stamp } });
      if (honored.length === 0 || slot.closing) return teardown(true);
      slot.close = close;
      for (const record of honored) tell(record);
      deliver = tell;
      for (const record of pending.splice(0)) tell(record);
      if (closed) return;
      keepAlive = setInterval(() => write(': keepalive\n\n'), KEEP_ALIVE_MS);
      keepAlive.unref();
      // A task's record is gone at its expiresAt (which never moves): once the last unfinished one's has
      // passed, every task listed is finished or gone, and nothing more can be told — end as when all are terminal.
      const lastExpiry = Math.max(...honored.filter((record) => !terminal.has(record.taskId)).map((record) => record.expiresAt));
      expiry = setTimeout(() => teardown(true), Math.min(MAX_TIMER_MS, Math.max(0, lastExpiry - Date.now())));
      expiry.unref();
    },
    cancel() {
      teardown(false);
    },
  });
  if (signal?.aborted) teardown(false);
  else signal?.addEventListener('abort', onAbort, { once: true });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' },
  });
}
