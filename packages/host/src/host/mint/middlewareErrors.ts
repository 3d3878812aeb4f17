/**
 * How a middleware's failure reaches a client on requests that have no error
 * result of their own (`tools/list`, `resources/read`, `prompts/get`): a
 * protocol error naming the middleware and its extension. (`tools/call` fails
 * closed with an `isError` result instead, like a handler that throws.)
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { MiddlewareFailure } from '../../contract/middleware.js';

/** Awaits `answer`, turning a middleware's failure into an internal-error protocol error. */
export async function protocolErrorOnFailure<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof MiddlewareFailure) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
    throw error;
  }
}
