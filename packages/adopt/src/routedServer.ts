/**
 * The low-level server methods an adopted module may call on "its" server,
 * each routed to the connection of the current call (see liveCall.ts). Used by
 * the recording stand-in and patched onto a snapshotted server alike.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { assertClientCan, currentCall, requireCall } from './liveCall.js';

type Params = Record<string, unknown> | undefined;
type Notification = { method: string; params?: Record<string, unknown> };

/** What a module may call on `server.server` (v1 `Server`, v2 low-level server). */
export interface RoutedServerMethods {
  createMessage(params: Params, options?: unknown): Promise<unknown>;
  elicitInput(params: Params, options?: unknown): Promise<unknown>;
  listRoots(params?: Params, options?: unknown): Promise<unknown>;
  ping(): Promise<unknown>;
  request(request: Notification, schemaOrOptions?: unknown, options?: unknown): Promise<unknown>;
  notification(notification: Notification): Promise<void>;
  sendLoggingMessage(params: { level: string; data: unknown; logger?: string }, sessionId?: string): Promise<void>;
  sendResourceUpdated(params: { uri: string }): Promise<void>;
  sendResourceListChanged(): Promise<void>;
  sendToolListChanged(): Promise<void>;
  sendPromptListChanged(): Promise<void>;
  getClientCapabilities(): ClientCapabilities | undefined;
  getClientVersion(): { name: string; version: string } | undefined;
}

/**
 * The routed methods for an adopted server named `extension`. `assumed` answers
 * `getClientCapabilities()` while recording (no client exists yet).
 */
export function routedServerMethods(extension: string, assumed: () => ClientCapabilities | undefined): RoutedServerMethods {
  const send = (what: string, request: Notification, schemaOrOptions?: unknown, options?: unknown): Promise<unknown> => {
    const { ctx } = requireCall(what, extension);
    assertClientCan(request.method, ctx, extension);
    const raw = ctx.mcpReq.send as (r: unknown, a?: unknown, b?: unknown) => Promise<unknown>;
    const standard = typeof schemaOrOptions === 'object' && schemaOrOptions !== null && '~standard' in schemaOrOptions;
    return standard ? raw(request, schemaOrOptions, options) : raw(request, schemaOrOptions);
  };
  // A notification outside a call is dropped, as the SDK drops list-changed notifications while not connected.
  const notify = async (notification: Notification): Promise<void> => {
    const call = currentCall();
    if (call) await call.ctx.mcpReq.notify(notification);
  };
  return {
    createMessage: async (params, options) => {
      const { ctx } = requireCall('createMessage (sampling)', extension);
      assertClientCan('sampling/createMessage', ctx, extension);
      return await ctx.mcpReq.requestSampling(params as never, options as never);
    },
    elicitInput: async (params, options) => {
      const { ctx } = requireCall('elicitInput', extension);
      assertClientCan('elicitation/create', ctx, extension);
      return await ctx.mcpReq.elicitInput(params as never, options as never);
    },
    listRoots: (params, options) => send('listRoots', { method: 'roots/list', ...(params ? { params } : {}) }, options),
    ping: () => send('ping', { method: 'ping' }),
    request: (request, schemaOrOptions, options) => send(`request "${request.method}"`, request, schemaOrOptions, options),
    notification: notify,
    sendLoggingMessage: async (params) => {
      const call = currentCall();
      if (call) await call.ctx.mcpReq.log(params.level as never, params.data, params.logger);
    },
    sendResourceUpdated: (params) => notify({ method: 'notifications/resources/updated', params }),
    sendResourceListChanged: () => notify({ method: 'notifications/resources/list_changed' }),
    sendToolListChanged: () => notify({ method: 'notifications/tools/list_changed' }),
    sendPromptListChanged: () => notify({ method: 'notifications/prompts/list_changed' }),
    getClientCapabilities: () => {
      const call = currentCall();
      if (!call) return assumed();
      return call.live?.server.server.getClientCapabilities() ?? assumed();
    },
    getClientVersion: () => currentCall()?.live?.server.server.getClientVersion(),
  };
}

/** The client capabilities assumed while recording: a client that can do everything. */
export const CAPABLE_CLIENT: ClientCapabilities = { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } };
