/**
 * The live server of the current call. An adopted module's handlers call "their"
 * server (`server.server.createMessage`, `sendLoggingMessage`, `notification`,
 * a tool handle's `disable()`…); the host serves them on a different SDK server
 * per connection, so those calls are routed, through an AsyncLocalStorage set
 * around each call, to the connection that made the call.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { OnServerContext, ToolHandle } from '@reactor/host';
import { AdoptError, AdoptErrorCodes } from './errors.js';

/** The minted server a call arrived on, as an `onServer` hook saw it. */
export interface LiveServer {
  readonly server: McpServer;
  /** The host's handle of a tool on that server. */
  tool(name: string): ToolHandle | undefined;
}

/** What is known of the call being served. */
export interface LiveCall {
  readonly ctx: ServerContext;
  readonly live: LiveServer | undefined;
}

const storage = new AsyncLocalStorage<LiveCall>();

/** Runs `fn` as part of a call, so routed server calls reach that call's connection. */
export function runInCall<T>(ctx: ServerContext, fn: () => T): T {
  return storage.run({ ctx, live: liveServerOf(ctx) }, fn);
}

/** The current call, if any. */
export function currentCall(): LiveCall | undefined {
  return storage.getStore();
}

/** The current call, or a clear error naming what was attempted outside one. */
export function requireCall(what: string, extension: string): LiveCall {
  const call = storage.getStore();
  if (call) return call;
  throw new AdoptError(AdoptErrorCodes.OUTSIDE_CALL, {
    subject: `adopted server "${extension}"`,
    problem: `${what} was called outside a tool, resource or prompt call, so there is no connection to send it on`,
    hint: 'an adopted server reaches clients only while serving one of their calls (timers and start-up code have no client)',
  });
}

const LIVE = Symbol.for('reactor.adopt.liveServer');

/**
 * Stamps every handler context a minted server builds with that server, so a
 * handler can find "its" live server. The SDK's `buildContext` is the one place
 * every request's context passes through; object spread keeps the symbol when
 * the host extends the context.
 */
export function stampLiveServer(server: McpServer, context: OnServerContext): void {
  const low = server.server as unknown as { buildContext?: (ctx: object, info: unknown) => object; [LIVE]?: LiveServer };
  const live: LiveServer = { server, tool: (name) => context.tool(name) };
  if (low[LIVE]) return;
  low[LIVE] = live;
  const build = low.buildContext;
  if (typeof build !== 'function') return;
  low.buildContext = function (this: unknown, ctx: object, info: unknown) {
    const built = build.call(this, ctx, info) as Record<PropertyKey, unknown>;
    Object.defineProperty(built, LIVE, { value: live, enumerable: true });
    return built;
  };
}

/** The live server stamped on a handler context, if any. */
export function liveServerOf(ctx: ServerContext): LiveServer | undefined {
  return (ctx as unknown as { [LIVE]?: LiveServer })[LIVE];
}

/** v1's `RequestHandlerExtra`, built from a v2 handler context. */
export interface V1Extra {
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  readonly _meta: Record<string, unknown> | undefined;
  readonly sessionId: string | undefined;
  readonly authInfo: unknown;
  readonly requestInfo: { headers: Record<string, string> } | undefined;
  sendNotification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  sendRequest(request: { method: string; params?: Record<string, unknown> }, resultSchema?: unknown, options?: Record<string, unknown>): Promise<unknown>;
}

/**
 * The context an adopted handler receives: v2's `ctx` with v1's `extra` fields
 * beside it. The two do not collide (both mean the same `sessionId`), so one
 * object serves a handler of either SDK line.
 */
export function handlerContext(ctx: ServerContext, extension: string): ServerContext & V1Extra {
  const req = ctx.mcpReq;
  const headers = ctx.http?.req?.headers;
  return {
    ...ctx,
    signal: req.signal,
    requestId: req.id,
    _meta: req._meta,
    sessionId: ctx.sessionId,
    authInfo: ctx.http?.authInfo,
    requestInfo: headers ? { headers: Object.fromEntries(headers.entries()) } : undefined,
    sendNotification: (notification) => req.notify(notification),
    sendRequest: (request, resultSchema, options) => {
      assertClientCan(request.method, ctx, extension);
      const send = req.send as (r: unknown, schemaOrOptions?: unknown, options?: unknown) => Promise<unknown>;
      return isStandardSchema(resultSchema) ? send(request, resultSchema, options) : send(request, options);
    },
  };
}

function isStandardSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { '~standard'?: { validate?: unknown } })['~standard']?.validate === 'function';
}

/** The client capability each server-to-client request needs. */
const NEEDS: Readonly<Record<string, 'sampling' | 'elicitation' | 'roots'>> = { 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation', 'roots/list': 'roots' };

/**
 * Refuses, with a clear error, a server-to-client request the calling client
 * did not declare it supports (the client would answer a bare "Method not
 * found"). Unknown when the live server is not known: then the request is sent.
 */
export function assertClientCan(method: string, ctx: ServerContext, extension: string): void {
  const needed = NEEDS[method];
  const live = liveServerOf(ctx);
  if (needed === undefined || live === undefined) return;
  const capabilities = live.server.server.getClientCapabilities();
  if (capabilities === undefined || capabilities[needed] !== undefined) return;
  throw new AdoptError(AdoptErrorCodes.REFUSED, {
    subject: `adopted server "${extension}"`,
    problem: `the call asked the client for ${needed} (${method}), but the client connected without the ${needed} capability`,
    hint: `use a client that supports ${needed}, or a tool that does not need it`,
  });
}
