/**
 * A plain 2026-07-28 `tools/call` handed to a shared server's lean handler
 * (`leanToolsCall.ts`) without going through the SDK's `Protocol#_onrequest`
 * — the same steps, for the one request shape where each is known to be a
 * no-op or a constant, written without what made them dear.
 *
 * `_onrequest` lifts the envelope out of `_meta` into a copy of the request
 * (with a `delete`, which turns the copy's params slow to read), builds four
 * closures and a context literal with three spreads (about a microsecond
 * each on Node 20), makes an `AbortController`, and chains five promises
 * around the handler. This keeps every one of those steps and drops only how
 * they were made: with the envelope check kept per envelope
 * (`envelopeCheck.ts`), a call cost 4.5 µs less of about 78 µs in pairs
 * (`node apps/bench/dist/compare.js`, docs/performance.md).
 *
 * Which requests: a `tools/call` whose params are `name`, optionally
 * `arguments`, and a `_meta` holding the envelope and nothing else (so the
 * lifted request is exactly `{ name, arguments }`: what the lean handler
 * takes), on a server bound to 2026-07-28 whose `tools/call` handler is
 * still the lean one, delivered with the fast path's deferred abort signal.
 * Anything else goes to `_onrequest`, before anything ran. The envelope is
 * checked with the era codec's own `checkInboundEnvelope`; a refusal is
 * `_onrequest`'s to send.
 *
 * What the handler gets is what `_onrequest` gives it: the lifted request,
 * and a context from the server's own `buildContext` over the same base
 * (id, method, `_meta`, envelope, a request state reading `undefined`, the
 * signal, and `send`/`notify` closures that call the same server methods
 * with `relatedRequestId`). Its outcome is encoded and sent as `_onrequest`
 * encodes and sends it: `encodeResult` for a result, `encodeErrorCode` for a
 * throw, nothing once aborted; its controller is registered in the server's
 * table while it runs, so cancellation and a closing transport abort it.
 * `leanDispatch.test.ts` holds both to the same messages for results,
 * throws, notifications, server requests and logs.
 */
import { ProtocolErrorCode, type JSONRPCRequest, type McpServer, type MessageExtraInfo } from '@modelcontextprotocol/server';
import { isThenable } from '../../../kernel/thenable.js';
import { DeferredController, DeferringControllers } from './deferredAbort.js';
import { ENVELOPE_META_KEYS } from './envelopeVerdicts.js';
import type { RequestHandler as Handler } from './leanToolsCall.js';
import { abortControllersOf, dispatchOf, isStockServer, type WireCodec } from '../../../host/mint/sdkInternals.js';

/** The one revision this serves. */
const REVISION = '2026-07-28';
const ENVELOPE_KEY_SET: ReadonlySet<string> = new Set(ENVELOPE_META_KEYS);

type SendOptions = Record<string, unknown> | undefined;

/** `ctx.mcpReq.requestState` of a request that carried none (the SDK shares one such accessor too). */
const NO_REQUEST_STATE = (): undefined => undefined;

/**
 * Delivers `message` to `server`'s lean `tools/call` handler as `_onrequest`
 * would; false, with nothing done, when the message or the server is not one
 * this serves. `lean` is the handler `installLeanToolsCall` registered.
 */
export type LeanDispatch = (message: JSONRPCRequest, extra: MessageExtraInfo) => boolean;

/** The lean dispatch for `server`, or `undefined` when it is not a stock server with the SDK internals this reads. */
export function leanDispatch(server: McpServer, lean: Handler): LeanDispatch | undefined {
  if (!isStockServer(server)) return undefined;
  const sdk = dispatchOf(server);
  const table = abortControllersOf(server);
  if (!sdk || !(table instanceof DeferringControllers)) return undefined;
  const controllers = table as unknown as Map<string | number, DeferredController>;

  return (message, extra) => {
    if (message.method !== 'tools/call' || sdk.negotiatedProtocolVersion() !== REVISION || (extra.classification as { revision?: string } | undefined)?.revision !== REVISION) return false;
    if (sdk.handlerFor('tools/call') !== lean) return false;
    const params = message.params;
    if (!isPlainObject(params)) return false;
    const meta = params._meta;
    if (!isPlainObject(meta)) return false;
    const plain: Record<string, unknown> = {};
    for (const key in params) {
      if (key === 'name' || key === 'arguments') plain[key] = params[key];
      else if (key !== '_meta') return false;
    }
    const envelope: Record<string, unknown> = {};
    let keys = 0;
    for (const key in meta) {
      if (!ENVELOPE_KEY_SET.has(key)) return false;
      keys++;
    }
    if (keys === 0) return false;
    for (const key of ENVELOPE_META_KEYS) if (key in meta) envelope[key] = meta[key];
    const codec = sdk.negotiatedCodec();
    // A refused envelope is `_onrequest`'s to answer.
    if (codec.checkInboundEnvelope({ envelope }) !== undefined) return false;

    const request: JSONRPCRequest = Object.assign({}, message);
    request.params = plain;
    const id = message.id;
    const transport = sdk.transport();
    const controller = new DeferredController();
    controllers.set(id, controller);
    const signal = controller.signal;
    const notify = (notification: { method: string }, options?: SendOptions) => sdk.notify(sdk.outboundCodec(notification.method), notification, { ...options, relatedRequestId: id });
    const send = (r: { method: string }, schemaOrOptions?: unknown, maybeOptions?: SendOptions) => {
      const sendCodec = sdk.outboundCodec(r.method);
      sdk.assertOutboundRequestInEra(sendCodec, r.method);
      if (isStandardSchema(schemaOrOptions)) return sdk.request(sdk.outboundCodec(r.method), r, schemaOrOptions, { ...maybeOptions, relatedRequestId: id });
      const validate = codecResultValidator(sendCodec, r.method);
      if (validate === undefined) throw new TypeError(`'${r.method}' is not a spec method; pass a result schema as the second argument to ctx.mcpReq.send().`);
      return sdk.request(sdk.outboundCodec(r.method), r, validate, { ...(schemaOrOptions as SendOptions), relatedRequestId: id });
    };
    const base = {
      sessionId: transport?.sessionId,
      mcpReq: { id, method: message.method, _meta: undefined, envelope, requestState: NO_REQUEST_STATE, signal, send, notify },
      http: extra.authInfo ? { authInfo: extra.authInfo } : undefined,
    };
    const ctx = sdk.buildContext(base, extra);
    const sendError = (code: number, text: string, data?: unknown): void => {
      const error: Record<string, unknown> = { code, message: text };
      if (data !== undefined) error.data = data;
      transport?.send({ jsonrpc: '2.0', id, error }).catch((failure: unknown) => sdk.reportError(new Error(`Failed to send an error response: ${String(failure)}`)));
    };
    /** Answers a throw as `_onrequest` reads one: a thrown `undefined` or `null` fails here, and is reported as a failed send. */
    const answerThrown = (thrown: unknown): Promise<void> | undefined => {
      if (signal.aborted) return undefined;
      const error = thrown as Record<string, unknown>;
      const thrownCode = Number.isSafeInteger(error['code']) ? (error['code'] as number) : ProtocolErrorCode.InternalError;
      const body: Record<string, unknown> = { code: codec.encodeErrorCode(thrownCode), message: (error.message) ?? 'Internal error' };
      if (error['data'] !== undefined) body.data = error['data'];
      return transport?.send({ jsonrpc: '2.0', id, error: body });
    };
    const answerResult = (result: unknown): Promise<void> | undefined => {
      if (signal.aborted) return undefined;
      let encoded: unknown;
      try {
        encoded = codec.encodeResult(message.method, result, sdk.serverInfo());
      } catch (error) {
        sdk.reportError(new Error(`Failed to encode result for ${message.method}: ${String(error)}`));
        sendError(ProtocolErrorCode.InternalError, 'Internal error');
        return undefined;
      }
      return transport?.send({ result: encoded, jsonrpc: '2.0', id });
    };
    // The handler's answer written as soon as it is had: one that answers at once (a synchronous tool) is sent in the same turn.
    const answer = (): Promise<void> | undefined => {
      let result: unknown;
      try {
        result = lean(request, ctx);
      } catch (thrown) {
        return answerThrown(thrown);
      }
      return isThenable(result) ? Promise.resolve(result).then(answerResult, answerThrown) : answerResult(result);
    };
    const done = (): void => {
      if (controllers.get(id) === controller) controllers.delete(id);
    };
    // As `_onrequest`: the handler starts on the next microtask, after the delivery returned; a failure to answer is reported, then the controller goes.
    void Promise.resolve()
      .then(answer)
      .then(done, (error: unknown) => {
        sdk.reportError(new Error(`Failed to send response: ${String(error)}`));
        done();
      });
    return true;
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The SDK's own test for a Standard Schema (`ctx.mcpReq.send`'s second argument). */
function isStandardSchema(schema: unknown): boolean {
  if (schema == null) return false;
  if (typeof schema !== 'object' && typeof schema !== 'function') return false;
  if (!('~standard' in schema)) return false;
  return typeof (schema as { '~standard'?: { validate?: unknown } })['~standard']?.validate === 'function';
}

/** The SDK's Standard Schema over the era codec's result check for a spec method; `undefined` for a method the era does not have. */
function codecResultValidator(codec: WireCodec, method: string): unknown {
  const probe = codec.validateResult(method, undefined);
  if (!probe.ok && probe.reason === 'not-in-era') return undefined;
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-wire-codec',
      validate(value: unknown) {
        const outcome = codec.validateResult(method, value);
        if (outcome.ok) return { value: outcome.value };
        return { issues: [{ message: outcome.reason === 'invalid' ? outcome.message : `not-in-era: ${method}` }] };
      },
    },
  };
}
