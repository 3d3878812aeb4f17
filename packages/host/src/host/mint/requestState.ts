/**
 * Tamper-proof `requestState` for input-required results (the 2026-07-28
 * multi-round-trip pattern, SEP-2322). A handler returns `inputRequired({
 * inputRequests, requestState })`; the client echoes `requestState` back on
 * its retry, so on re-entry it is attacker-controlled input.
 *
 * The host seals every `requestState` a tool, prompt or resource returns —
 * after all tool extensions ran, so no wrapper has to care — with the SDK's
 * `createRequestStateCodec` (HMAC-SHA256, expiring), bound to the request's
 * target (`tools/call` of that tool, say) and principal. On the retry it
 * verifies the echoed value before any handler runs and hands the handlers
 * the state they wrote, unchanged, through `ctx.mcpReq.requestState()`. A
 * tampered, expired or foreign state is refused with the protocol's
 * `-32602` "Invalid or expired requestState".
 *
 * The host does this in its own handlers rather than through the SDK's
 * `ServerOptions.requestState.verify` hook because a deployment's
 * `serverFactory` constructs the SDK server, and the hook is constructor-only.
 *
 * A state is also bound to the selection it was minted for — tenant,
 * activation key and tool filter, the blueprint's identity, so the same
 * toolsets written another way are the same selection — and refused under
 * another: a wrapper, a scope or a filter that shaped the first round is in
 * force on the retry. Within its lifetime a state can be replayed by the same
 * principal on the same selection and target; that only re-enters a handler
 * with a state it wrote itself, with fresh input responses (docs/serving.md).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { describeValue, ErrorCodes, ReactorError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import { principalOf } from '../../kernel/principal.js';
import { toolFilterKey, type ToolFilter } from '../../selection/toolFilter.js';

/** The fewest bytes a `requestStateKey` may have (the SDK codec's HMAC key floor). */
export const MIN_REQUEST_STATE_KEY_BYTES = 32;

/** The frozen wire message of a refused `requestState` (as the SDK's own hook answers). */
export const INVALID_REQUEST_STATE_MESSAGE = 'Invalid or expired requestState';

/** What the host seals: the handler's own state and the request it belongs to. */
interface SealedPayload {
  /** The target: `tools/call:<name>`, `prompts/get:<name>` or `resources/read:<uri>`. */
  readonly t: string;
  /** The state the handler returned, unchanged. */
  readonly s: string;
  /** The selection it was minted for: the SHA-256 (base64url) of its canonical form. */
  readonly k: string;
}

/** What a state is bound to: a blueprint's tenant, activation key and tool filter (a `Blueprint` is one). */
export interface SealedSelection {
  readonly tenant: string | undefined;
  /** The activation key (`activationKey(active)`). */
  readonly key: string;
  readonly filter?: ToolFilter | undefined;
}

/** Seals and opens `requestState` for one host. */
export interface RequestStateSeal {
  /** The seal of the servers minted for `selection`: what it seals is refused under any other. */
  forSelection(selection: SealedSelection): SelectionRequestStateSeal;
}

/** Seals and opens `requestState` for the servers of one selection. */
export interface SelectionRequestStateSeal {
  /** Returns `result` with its `requestState` sealed for `target` when it is an input-required result; any other result unchanged. */
  seal<T>(result: T, target: string, ctx: ServerContext): Promise<T>;
  /**
   * Verifies the round's echoed `requestState` (if any) for `target` and
   * returns the context the handlers get: `mcpReq.requestState()` answers the
   * state they sealed. Throws the protocol's `-32602` when it does not verify.
   */
  open(ctx: ServerContext, target: string): Promise<ServerContext>;
}

/** Options of {@link createRequestStateSeal}. */
export interface RequestStateSealOptions {
  /** The HMAC key, at least 32 bytes; every replica serving one client must share it. Default: random per process (warned about on first use). */
  readonly key?: string | Uint8Array | undefined;
  /** How long a sealed state stays valid, seconds. Default 600. */
  readonly ttlSeconds?: number;
  readonly logger: Logger;
}

/** Throws `REACTOR_OPTION_INVALID` unless `key` is a string or bytes of at least 32 bytes. */
export function assertValidRequestStateKey(key: unknown, where = 'requestStateKey'): asserts key is string | Uint8Array {
  const bytes = typeof key === 'string' ? Buffer.byteLength(key, 'utf8') : key instanceof Uint8Array ? key.byteLength : -1;
  if (bytes >= MIN_REQUEST_STATE_KEY_BYTES) return;
  throw new ReactorError(ErrorCodes.OPTION_INVALID, {
    subject: `option ${where}`,
    problem: 'cannot sign requestState',
    expected: `a string or Uint8Array of at least ${MIN_REQUEST_STATE_KEY_BYTES} bytes`,
    received: bytes >= 0 ? `${bytes} byte(s)` : describeValue(key),
    hint: 'generate one with `openssl rand -base64 48` and give every replica the same key',
  });
}

/** Makes the host's `requestState` seal. */
export function createRequestStateSeal(options: RequestStateSealOptions): RequestStateSeal {
  const given = options.key;
  if (given !== undefined) assertValidRequestStateKey(given);
  let warned = given !== undefined;
  const codec: RequestStateCodec<SealedPayload> = createRequestStateCodec<SealedPayload>({
    key: given ?? randomBytes(MIN_REQUEST_STATE_KEY_BYTES),
    ...(options.ttlSeconds !== undefined ? { ttlSeconds: options.ttlSeconds } : {}),
    // A state minted for one principal is refused when another echoes it.
    bind: (ctx) => principalOf(ctx.http?.authInfo) ?? '',
  });

  return {
    forSelection(selection) {
      // Computed on the first round that needs it: minting a server costs nothing more.
      let tag: string | undefined;
      const tagOf = () => (tag ??= selectionTag(selection));
      return {
        seal: (result, target, ctx) => seal(result, target, tagOf, ctx),
        open: (ctx, target) => open(ctx, target, tagOf),
      };
    },
  };

  async function seal<T>(result: T, target: string, tagOf: () => string, ctx: ServerContext): Promise<T> {
    if (!isInputRequiredResult(result) || typeof result.requestState !== 'string') return result;
    if (!warned) {
      warned = true;
      options.logger.warn(
        { code: ErrorCodes.OPTION_INVALID },
        'requestState is signed with a random per-process key because no requestStateKey was given; a client retrying on another replica (or after a restart) is refused — give every replica the same key (requestStateKey, --request-state-key or REACTOR_MCP_REQUEST_STATE_KEY)',
      );
    }
    const sealed = await codec.mint({ t: target, s: result.requestState, k: tagOf() }, ctx);
    return { ...result, requestState: sealed };
  }

  async function open(ctx: ServerContext, target: string, tagOf: () => string): Promise<ServerContext> {
    const echoed: unknown = ctx.mcpReq.requestState();
    if (echoed === undefined) return ctx;
    let payload: SealedPayload;
    try {
      if (typeof echoed !== 'string') throw new Error('not a string');
      payload = await codec.verify(echoed, ctx);
      if (payload.t !== target || typeof payload.s !== 'string') throw new Error('target');
      if (payload.k !== tagOf()) throw new Error('selection');
    } catch {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, INVALID_REQUEST_STATE_MESSAGE, { reason: 'invalid_request_state' });
    }
    const state = payload.s;
    return { ...ctx, mcpReq: { ...ctx.mcpReq, requestState: (<T>() => state as T) } };
  }
}

/** The tag of a selection: its canonical form (tenant, activation key, tool filter), hashed so the state stays short and names nothing. */
function selectionTag(selection: SealedSelection): string {
  const canonical = JSON.stringify([selection.tenant ?? null, selection.key, selection.filter ? toolFilterKey(selection.filter) : null]);
  return createHash('sha256').update(canonical, 'utf8').digest('base64url');
}
