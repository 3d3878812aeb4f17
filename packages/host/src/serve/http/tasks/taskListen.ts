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
 * - once every task listed is terminal, the stream ends with the listen's
 *   empty result (the spec's graceful close).
 */
import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { isTerminalStatus, type TaskRecord, type TaskStore } from './taskStore.js';

/** Most task ids one listen may name. */
export const MAX_LISTEN_TASK_IDS = 100;
/** How often an idle stream sends an SSE comment, so proxies keep it open. */
const KEEP_ALIVE_MS = 15_000;

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
 * {@link MAX_LISTEN_TASK_IDS}) of `owner`. `open` holds the teardowns of the
 * open streams (bounded by the caller); `signal` ends the stream when the
 * client goes.
 */
export async function openTaskListen(source: TaskListenSource, id: string | number, taskIds: readonly string[], owner: string, open: Set<() => void>, signal: AbortSignal | undefined): Promise<Response> {
  const { store } = source;
  const stamp = { [SUBSCRIPTION_ID_META_KEY]: id };
  const encoder = new TextEncoder();
  // Watch before reading, so no change falls between the read and the watch.
  const pending: TaskRecord[] = [];
  let deliver: (record: TaskRecord) => void = (record) => void pending.push(record);
  const unwatches: Array<() => void> = [];
  const wanted = [...new Set(taskIds)].filter((taskId) => source.verifies(taskId));
  for (const taskId of wanted) unwatches.push(store.watch(taskId, (record) => deliver(record)));
  const found = await Promise.all(wanted.map((taskId) => store.get(taskId, owner)));
  const honored = found.filter((record): record is TaskRecord => record !== undefined);
  const ownedIds = new Set(honored.map((record) => record.taskId));
  // The newest state sent per task: a change told before the first read answered is not sent twice, nor an older state after a newer.
  const sent = new Map<string, number>();
  const terminal = new Set<string>();

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let keepAlive: NodeJS.Timeout | undefined;
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
    signal?.removeEventListener('abort', onAbort);
    open.delete(close);
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
      if (honored.length === 0) return teardown(true);
      open.add(close);
      for (const record of honored) tell(record);
      deliver = tell;
      for (const record of pending.splice(0)) tell(record);
      if (closed) return;
      keepAlive = setInterval(() => write(': keepalive\n\n'), KEEP_ALIVE_MS);
      keepAlive.unref();
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
