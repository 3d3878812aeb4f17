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

import { DeferredAbortSignal } from '../../../host/build/callSignal.js';

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
