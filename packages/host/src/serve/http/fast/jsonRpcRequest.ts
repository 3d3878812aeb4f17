/**
 * The SDK's `isJSONRPCRequest` for a body the fast path parsed from JSON,
 * decided directly. The SDK asks its strict zod schema (`JSONRPCRequestSchema`),
 * which costs about two microseconds a request — a thirtieth of a whole
 * answer — to say what a few property reads say. The verdicts are the same
 * by construction (`jsonRpcRequest.test.ts` holds them to the SDK's on every
 * shape the schema distinguishes), and the fast path's differential test
 * compares whole answers.
 */
import { JSONRPC_VERSION, RELATED_TASK_META_KEY, type JSONRPCRequest } from '@modelcontextprotocol/server';

/** What the schema calls an object: not null, not an array. */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A request id or progress token: a string, or a safe integer (zod's `number().int()`). */
const isIdLike = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);

/**
 * Whether `body` (a value `JSON.parse` made) is a JSON-RPC request by the SDK's
 * schema: `jsonrpc` "2.0", a string or integer `id`, a string `method`, and
 * `params`, if any, an object whose `_meta`, if any, is an object with an id-like
 * `progressToken` and a `{ taskId: string }` related task, when present.
 * The schema is strict: a member but those four fails it.
 */
export function isJsonRpcRequest(body: unknown): body is JSONRPCRequest {
  if (!isObject(body) || body.jsonrpc !== JSONRPC_VERSION || typeof body.method !== 'string' || !isIdLike(body.id)) return false;
  for (const key in body) if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  const params = body.params;
  if (params === undefined) return true;
  if (!isObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  if (meta.progressToken !== undefined && !isIdLike(meta.progressToken)) return false;
  const related = meta[RELATED_TASK_META_KEY];
  return related === undefined || (isObject(related) && typeof related.taskId === 'string');
}
