/**
 * The abort signal of a fast-path `tools/call`, without a Node `AbortSignal`.
 *
 * The SDK's request dispatch makes an `AbortController` for every request and
 * reads its `signal` at once, to put it in the handler context. On Node 20
 * (V8 11.3) making an `AbortSignal` gives the object a map of its own (Node
 * sets its prototype, then adds properties), which keeps it and what it
 * reaches alive through young-generation collections until a full one. In
 * a scratch build that gave the SDK a plain controller instead, a call cost
 * 6.7% less server CPU (`compare.js`, paired).
 *
 * Where nothing but the host and the SDK's own dispatch can see that signal —
 * a `tools/call` on a shared server of the stock SDK classes: the handler
 * context the host builds carries the call's own signal instead
 * (`blueprint.ts`), and middleware layers get a copy of the context with a
 * real signal that follows it ({@link withRealSignal}) — the controller the SDK made is
 * given a {@link DeferredAbortSignal} before the SDK reads its `signal`: the
 * server's table of in-flight controllers, where the SDK registers it first,
 * is a {@link DeferringControllers}. The SDK aborts the controller (a
 * `notifications/cancelled`, its transport closing, the host's
 * `abortHandler`) and reads `aborted`; the host's `CallSignal` follows it with
 * `addEventListener('abort')`. Everything else keeps Node's own controller.
 */

import { CallSignal, withCallSignal } from '../callSignal.js';

/** An `abort` listener: a function, or an object with `handleEvent`, as an EventTarget takes them. */
type AbortListener = ((event: Event) => void) | { handleEvent(event: Event): void };

/** What the host and the SDK read of a request's abort signal. */
export type RequestAbortSignal = Pick<AbortSignal, 'aborted' | 'reason' | 'throwIfAborted' | 'addEventListener' | 'removeEventListener'>;

/**
 * A request's abort signal for the readers named above: `aborted`, `reason`,
 * `throwIfAborted`, and `abort` listeners (each called once, in the order
 * added, with an `Event` named `abort`). Not an `AbortSignal`: it is never
 * handed to code that could pass it on to Node or `AbortSignal.any`.
 */
export class DeferredAbortSignal implements RequestAbortSignal {
  #aborted = false;
  #reason: unknown = undefined;
  #listeners: AbortListener[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  addEventListener(type: string, listener: AbortListener | null): void {
    // As an EventTarget: once aborted, no abort event comes again; the same listener added twice is called once.
    if (type !== 'abort' || listener === null || this.#aborted || this.#listeners?.includes(listener)) return;
    (this.#listeners ??= []).push(listener);
  }

  removeEventListener(type: string, listener: AbortListener | null): void {
    if (type !== 'abort' || !this.#listeners || listener === null) return;
    const at = this.#listeners.indexOf(listener);
    if (at >= 0) this.#listeners.splice(at, 1);
  }

  /** Aborts (once) with `reason`, as `AbortController#abort` does: a missing reason is an `AbortError`. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (!listeners) return;
    const event = new Event('abort');
    for (const listener of listeners) {
      if (typeof listener === 'function') listener.call(this, event);
      else listener.handleEvent(event);
    }
  }
}

/** A deferred controller's `abort`: one function for all of them, so none is made per request. */
function abortDeferred(this: AbortController, reason?: unknown): void {
  (this.signal as unknown as DeferredAbortSignal).abort(reason);
}

/**
 * A controller with a deferred signal from the start: what an armed
 * {@link DeferringControllers} makes of the SDK's `AbortController`, for a
 * dispatch that makes its own (`leanDispatch.ts`) and so need not make the
 * SDK's first.
 */
export class DeferredController {
  readonly signal = new DeferredAbortSignal();

  abort(reason?: unknown): void {
    this.signal.abort(reason);
  }
}

/**
 * A server's table of in-flight request controllers that, when armed for
 * the next registration, gives that controller a {@link DeferredAbortSignal}:
 * an own `signal` (shadowing the prototype's getter, so Node never makes its
 * signal) and an own `abort` aborting it. Armed by the shared transport
 * around one synchronous delivery (`sharedExchange.ts`).
 */
export class DeferringControllers extends Map<string | number, AbortController> {
  #armed = false;

  /** The next controller registered gets a deferred signal; call {@link disarm} after the delivery, whether or not one was. */
  arm(): void {
    this.#armed = true;
  }

  disarm(): void {
    this.#armed = false;
  }

  override set(id: string | number, controller: AbortController): this {
    if (this.#armed) {
      this.#armed = false;
      Object.defineProperty(controller, 'signal', { value: new DeferredAbortSignal() });
      Object.defineProperty(controller, 'abort', { value: abortDeferred });
    }
    return super.set(id, controller);
  }
}

/**
 * A request context for code that may pass its signal on (a middleware
 * layer): when `ctx`'s request signal is deferred, a copy whose
 * `mcpReq.signal` is a real `AbortSignal`, made on first read and aborted
 * with the deferred one (with its reason) — a {@link CallSignal}, as a tool
 * handler gets; any other context as it is.
 */
export function withRealSignal<T extends { mcpReq: { signal: unknown } }>(ctx: T): T {
  const deferred = ctx.mcpReq.signal;
  if (!(deferred instanceof DeferredAbortSignal)) return ctx;
  const copy = Object.assign({}, ctx);
  copy.mcpReq = withCallSignal(Object.assign({}, ctx.mcpReq), new CallSignal(deferred));
  return copy;
}
