/**
 * A request whose node died while running it fails fast, with a reason. A
 * 2025 client whose POST was answered over SSE resumes that stream with
 * `Last-Event-ID` when the connection drops; after a `kill -9` the resumption
 * reaches the replica that took the session over, which replays what the
 * event store kept and — since it never had the request — closes the stream.
 * The v1 SDK client then resumes again and again and its call waits for its
 * own request timeout (60 s by default); a JSON-RPC answer to the request is
 * the only thing that ends the call, so this store gives the replica one.
 *
 * Every event id of a POST's stream carries the ids of the requests the POST
 * made (`<event id>#r<base64url JSON>`; other streams' ids are the store's
 * own, unchanged), so the id a client resumes with says
 * which requests the stream was to answer — no extra write to the store, on
 * any replica. Replaying a stream this transport did not produce (its node is
 * gone), when the replay holds no answer to those requests, ends with a
 * JSON-RPC error answering each; its event id (`#x<ids>`) names a stream with
 * nothing more to come, so a resumption with it is refused (400) and the
 * client's bounded reconnection stops. On the replica that runs the request,
 * a resumption is the SDK's ordinary one: the stream stays open for the answer.
 */
import type { EventStore, JSONRPCMessage, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { JsonRpcCodes } from '../jsonRpc.js';

type RequestId = string | number;

/** The SDK's stream id of a session's standalone GET stream (events there answer no request). */
const STANDALONE_STREAM = '_GET_stream';
/** Streams in flight this transport remembers at most (one per POST awaiting its answer). */
const MAX_OPEN_STREAMS = 1_000;
/** What this store appends to the ids of a POST's stream: `#r<ids>`, or `#x<ids>` once interrupted (nothing follows). */
const SUFFIX = /#([rx])([A-Za-z0-9_-]+)$/;

/** What the wrapper needs to know of its session. */
export interface InterruptedRequestsOptions {
  readonly sessionId: string;
  /** This node's name, told to the client in the error (absent without a registry). */
  readonly nodeId?: string | undefined;
}

/** An event store that answers, on resumption, the requests of a stream whose node is gone; {@link bind} it to its transport once made. */
export interface AnsweringEventStore extends EventStore {
  /** Tells the store which transport it serves (the one whose POSTs it labels). */
  bind(transport: WebStandardStreamableHTTPServerTransport): void;
}

/** A parsed event id: the inner store's id, and what this store appended. */
interface Labelled {
  readonly inner: string;
  readonly ids: readonly RequestId[];
  readonly interrupted: boolean;
}

function label(inner: string, ids: readonly RequestId[] | undefined, tag: 'r' | 'x' = 'r'): string {
  return ids && ids.length > 0 ? `${inner}#${tag}${Buffer.from(JSON.stringify(ids)).toString('base64url')}` : inner;
}

/** Splits an id this store issued; any other id (another stream's, an older replica's) is the inner store's alone. */
export function parseLabelledEventId(eventId: string): Labelled {
  const match = SUFFIX.exec(eventId);
  const whole = { inner: eventId, ids: [], interrupted: false };
  if (!match) return whole;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(match[2]!, 'base64url').toString('utf8'));
  } catch {
    return whole;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((id) => typeof id === 'string' || typeof id === 'number')) return whole;
  return { inner: eventId.slice(0, match.index), ids: parsed, interrupted: match[1] === 'x' };
}

/** The id a JSON-RPC response answers, if `message` is one. */
function answered(message: JSONRPCMessage): RequestId | undefined {
  const m = message as { id?: unknown; result?: unknown; error?: unknown; method?: unknown };
  if (m.method !== undefined || (m.result === undefined && m.error === undefined)) return undefined;
  return typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
}

/**
 * The requests the SDK just tied to `streamId`. The SDK offers no public way
 * to learn which request a POST stream answers before its priming event is
 * stored (it stores that event, synchronously after recording the tie, before
 * it dispatches the request), so its map is read here, and only here; an SDK
 * that renamed it yields no ids — resumptions then behave as before this
 * store — and `interruptedRequests.test.ts` fails.
 */
function requestsOf(transport: WebStandardStreamableHTTPServerTransport | undefined, streamId: string): RequestId[] {
  const map = (transport as unknown as { _requestToStreamMapping?: unknown } | undefined)?._requestToStreamMapping;
  if (!(map instanceof Map)) return [];
  const ids: RequestId[] = [];
  for (const [id, stream] of map as Map<unknown, unknown>) if (stream === streamId && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  return ids;
}

/** `store` (a session's view), labelling a POST stream's event ids with its requests and answering them when their node is gone. */
export function answeringInterruptedRequests(store: EventStore, options: InterruptedRequestsOptions): AnsweringEventStore {
  let transport: WebStandardStreamableHTTPServerTransport | undefined;
  /** The POST streams this transport produces and that still await an answer: stream id → the requests they answer. */
  const open = new Map<string, Set<RequestId>>();

  const interruptedError = (id: RequestId): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id,
    error: {
      code: JsonRpcCodes.SERVER_ERROR,
      message: `Request interrupted: the node that was running request ${JSON.stringify(id)} of session ${options.sessionId} stopped before answering it (it was killed or lost)${options.nodeId ? `; node "${options.nodeId}" now serves the session` : ''}. The request may or may not have taken effect: repeat it if that is safe.`,
    },
  });

  return {
    bind(t) {
      transport = t;
    },
    async storeEvent(streamId, message) {
      let ids = open.get(streamId);
      if (!ids && streamId !== STANDALONE_STREAM && Object.keys(message).length === 0) {
        // The priming event of a POST's stream: the SDK has just tied its requests to it.
        const tied = requestsOf(transport, streamId);
        if (tied.length > 0) {
          if (open.size >= MAX_OPEN_STREAMS) open.delete(open.keys().next().value!);
          open.set(streamId, (ids = new Set(tied)));
        }
      }
      const labelIds = ids ? [...ids] : undefined;
      const inner = await store.storeEvent(streamId, message);
      const done = answered(message);
      if (ids && done !== undefined) {
        ids.delete(done);
        if (ids.size === 0) open.delete(streamId);
      }
      return label(inner, labelIds);
    },
    async getStreamIdForEventId(eventId) {
      const parsed = parseLabelledEventId(eventId);
      // Nothing follows an interruption: the SDK answers 400, and the client's bounded reconnection ends.
      if (parsed.interrupted) return undefined;
      return store.getStreamIdForEventId ? await store.getStreamIdForEventId(parsed.inner) : undefined;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const parsed = parseLabelledEventId(lastEventId);
      if (parsed.interrupted) throw new Error('the stream was interrupted: nothing follows');
      const pending = new Set(parsed.ids);
      let last = parsed.inner;
      const streamId = await store.replayEventsAfter(parsed.inner, {
        send: async (eventId, message) => {
          last = eventId;
          const done = answered(message);
          if (done !== undefined) pending.delete(done);
          await send(label(eventId, parsed.ids), message);
        },
      });
      // Its node still runs it (this transport produced the stream, or the SDK still ties a request to it — a
      // stream evicted from `open` by its bound is not taken for a dead node's): the SDK keeps it open for the answer.
      if (pending.size === 0 || open.has(streamId) || requestsOf(transport, streamId).length > 0) return streamId;
      for (const id of pending) await send(label(last, parsed.ids, 'x'), interruptedError(id));
      return streamId;
    },
  };
}
