/**
 * Host-wide middleware (`middleware()` on an extension): named layers around
 * every `tools/call` — and, when they ask, `tools/list`, `resources/read` and
 * `prompts/get` — of the servers where their extension participates. For audit
 * logs, rate limits, argument redaction and policy.
 *
 * Ordered like tool extensions (by `order`, then registration order; the last
 * applied is the outermost, so it runs first) and composed once per blueprint:
 * a request resolves nothing. A layer that throws fails closed for that call
 * only — an error naming the middleware and its extension — and is logged.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';
import type { Selection } from '../selection/selection.js';

/** The requests a middleware can wrap. */
export type MiddlewareMethod = 'tools/call' | 'tools/list' | 'resources/read' | 'prompts/get';

/** Every method a middleware may name in `methods`. */
export const MIDDLEWARE_METHODS: readonly MiddlewareMethod[] = Object.freeze(['tools/call', 'tools/list', 'resources/read', 'prompts/get']);

/** What a middleware is told about one request. */
export interface MiddlewareCall {
  readonly method: MiddlewareMethod;
  /** The tool or prompt name (`tools/call`, `prompts/get`), as the client sent it. */
  readonly name?: string;
  /** `tools/call`: the served tool — its final annotations, offering extension and toolset. */
  readonly tool?: {
    readonly name: string;
    readonly extension: string;
    readonly toolset: string | undefined;
    readonly annotations?: { readonly readOnlyHint?: boolean; readonly destructiveHint?: boolean; readonly idempotentHint?: boolean; readonly openWorldHint?: boolean; readonly title?: string };
  };
  /** `resources/read`: the URI asked for. */
  readonly uri?: string;
  /** The arguments as the client sent them (before validation): tool arguments or prompt arguments. */
  readonly arguments: Readonly<Record<string, unknown>> | undefined;
  /** The connection's selection. */
  readonly selection: Selection;
  /** The toolsets active on the connection. */
  readonly toolsets: ReadonlySet<string>;
  /** The tenant, when the deployment has them. */
  readonly tenant: string | undefined;
  /** The SDK's request context (`ctx.http?.authInfo` carries the caller's token info). */
  readonly ctx: ServerContext;
}

/** Continues to the next layer (or the request itself); may pass other arguments on. */
export type MiddlewareNext = (changes?: { readonly arguments?: Record<string, unknown> }) => Promise<unknown>;

/** One middleware, as `middleware()` returns it. */
export interface Middleware {
  /** Names the layer in errors and logs, e.g. `audit-log`. */
  readonly name: string;
  /** Lower applies first; the last applied is outermost and runs first. Default 0. */
  readonly order?: number;
  /** The requests it wraps. Default `['tools/call']`. */
  readonly methods?: readonly MiddlewareMethod[];
  /**
   * Handles one request: call `next()` for the result (and return it, changed
   * or not), or return a result of your own to short-circuit — for `tools/call`
   * an error is a `CallToolResult` with `isError: true`. Throwing fails the call
   * closed with an error naming this middleware.
   */
  handle(call: MiddlewareCall, next: MiddlewareNext): unknown;
}

/** A middleware with the extension that contributed it and its registration index. */
export interface MiddlewareOfExtension {
  readonly extension: string;
  readonly registrationIndex: number;
  readonly middleware: Middleware;
}

/** The final step a chain wraps: the request itself, with the arguments the layers settled on. */
export type MiddlewareTerminal = (args: Record<string, unknown> | undefined) => Promise<unknown>;

/** Raised (and answered as an error) when a middleware throws: names the layer and its extension. */
export class MiddlewareFailure extends Error {
  constructor(
    readonly middleware: string,
    readonly extension: string,
    cause: unknown,
  ) {
    super(`Middleware "${middleware}" of extension "${extension}" failed, so this call is refused: ${errorMessage(cause)}`, { cause });
    this.name = 'MiddlewareFailure';
  }
}

/**
 * Checks one `middleware()` entry, throwing a `REACTOR_CONTRIBUTION_FAILED`
 * error naming the extension and what is wrong.
 */
export function assertValidMiddleware(value: unknown, extension: string): asserts value is Middleware {
  const fail = (problem: string, expected: string, received: unknown): never => {
    throw new ReactorError(ErrorCodes.CONTRIBUTION_FAILED, {
      subject: `middleware ${typeof (value as { name?: unknown } | null)?.name === 'string' ? JSON.stringify((value as { name: string }).name) : '(unnamed)'} of extension "${extension}"`,
      problem,
      expected,
      received: describeValue(received),
      hint: 'return [{ name: "my-layer", handle: async (call, next) => next() }] from middleware()',
      extension,
    });
  };
  if (typeof value !== 'object' || value === null) fail('is not a middleware', 'an object { name, handle }', value);
  const m = value as Partial<Middleware>;
  if (typeof m.name !== 'string' || m.name.trim() === '') fail('has no name', 'a non-empty string', m.name);
  if (typeof m.handle !== 'function') fail('has no handle function', 'a function (call, next) => result', m.handle);
  if (m.order !== undefined && (typeof m.order !== 'number' || !Number.isFinite(m.order))) fail('has an invalid order', 'a finite number', m.order);
  if (m.methods !== undefined) {
    if (!Array.isArray(m.methods) || m.methods.length === 0) fail('has invalid methods', `a non-empty array of ${MIDDLEWARE_METHODS.join(', ')}`, m.methods);
    for (const method of m.methods as unknown[]) {
      if (!MIDDLEWARE_METHODS.includes(method as MiddlewareMethod)) fail('names an unknown method', `one of ${MIDDLEWARE_METHODS.join(', ')}`, method);
    }
  }
}

/** Sorts middlewares into application order (first applied first, so innermost first). */
export function middlewareOrder(layers: readonly MiddlewareOfExtension[]): MiddlewareOfExtension[] {
  return [...layers].sort((a, b) => (a.middleware.order ?? 0) - (b.middleware.order ?? 0) || a.registrationIndex - b.registrationIndex);
}

/** A composed chain for one method: call it with the request and the terminal step. */
export type MiddlewareChain = (call: MiddlewareCall, terminal: MiddlewareTerminal) => Promise<unknown>;

/**
 * Composes the layers that wrap `method` into one chain, or `undefined` when
 * none does (the request then runs with no indirection at all). Done once per
 * blueprint.
 */
export function composeMiddleware(layers: readonly MiddlewareOfExtension[], method: MiddlewareMethod): MiddlewareChain | undefined {
  const applicable = middlewareOrder(layers).filter((l) => (l.middleware.methods ?? ['tools/call']).includes(method));
  if (applicable.length === 0) return undefined;
  // Outermost first at call time: the last applied runs first.
  const outermostFirst = applicable.reverse();
  return (call, terminal) => {
    // Errors of the request itself (an unknown resource, say) pass through the
    // layers as they are: only a layer's own failure is blamed on it. The set
    // is made only when the request throws: a WeakSet per call would cost
    // every call an allocation the garbage collector treats specially.
    let passing: WeakSet<object> | undefined;
    const step = async (index: number, current: MiddlewareCall): Promise<unknown> => {
      const layer = outermostFirst[index];
      if (layer === undefined) {
        try {
          return await terminal(current.arguments);
        } catch (error) {
          if (typeof error === 'object' && error !== null) (passing ??= new WeakSet()).add(error);
          throw error;
        }
      }
      // Not async itself: `step` already answers with a promise (one wrapper fewer per layer).
      const next: MiddlewareNext = (changes) => step(index + 1, changes?.arguments !== undefined ? { ...current, arguments: changes.arguments } : current);
      try {
        return await layer.middleware.handle(current, next);
      } catch (error) {
        // A failure further in was already attributed; pass it on untouched.
        if (error instanceof MiddlewareFailure || (typeof error === 'object' && error !== null && passing?.has(error) === true)) throw error;
        throw new MiddlewareFailure(layer.middleware.name, layer.extension, error);
      }
    };
    return step(0, call);
  };
}
