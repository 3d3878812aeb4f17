/**
 * A call's own abort signal, and how a context object carries it.
 *
 * {@link CallSignal} is the `AbortSignal` a tool handler (and a middleware
 * layer, {@link withRealSignal}) sees: made only when read, following the
 * request's signal. {@link withCallSignal} gives an object an enumerable
 * `signal` answering it through one getter shared by every such object: on
 * Node 20 (V8 11.3) an accessor whose function is new for each object gives
 * that object a map of its own, and the map keeps the getter's closure, with
 * the call and its request, alive through young-generation collections until
 * a full one — a quarter of what a call allocated was promoted. The call
 * itself sits under a symbol key, set by plain assignment (a hidden property
 * needs `Object.defineProperty`, several hundred nanoseconds a call): no
 * `Object.keys`, `for…in` or JSON shows it; a spread copy carries it along,
 * beside `signal` read as a value.
 */

/**
 * A tool call's `ctx.signal`: aborted when the SDK's request signal aborts
 * (cancellation, the client gone) or the call's time limit passes — made only
 * when a handler reads it. Most handlers never do, and an AbortController
 * following another signal costs a call several microseconds.
 */
export class CallSignal {
  #controller: AbortController | undefined;
  /** Why the call was aborted before anyone read the signal. */
  #abortedWith: { reason: unknown } | undefined;
  #settled = false;
  readonly #onParentAbort = () => this.abort(this.parent.reason);

  /** `parent`: the SDK's request signal — or, on the fast path, a deferred one (`serve/http/fast/deferredAbort.ts`), read only through what both offer. */
  constructor(private readonly parent: RequestAbortSignal) {}

  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    if (this.#abortedWith) controller.abort(this.#abortedWith.reason);
    else if (this.parent.aborted) controller.abort(this.parent.reason);
    // After the call settled, the request's signal no longer reaches it (as when the listener was removed).
    else if (!this.#settled) this.parent.addEventListener('abort', this.#onParentAbort, { once: true });
    return controller.signal;
  }

  abort(reason: unknown): void {
    if (this.#controller) this.#controller.abort(reason);
    else this.#abortedWith ??= { reason };
  }

  /** The call is done: stop following the request's signal. */
  settle(): void {
    this.#settled = true;
    if (this.#controller) this.parent.removeEventListener('abort', this.#onParentAbort);
  }
}

/** Where a context object keeps its call. */
const CALL: unique symbol = Symbol('reactor.call');

/** The `signal` of every object given one by {@link withCallSignal}. */
const CALL_SIGNAL: PropertyDescriptor = {
  get(this: { [CALL]: CallSignal }): AbortSignal {
    return this[CALL].signal;
  },
  enumerable: true,
  configurable: true,
};

/** Gives `target` an enumerable `signal`: `call`'s, made when first read. Returns `target`. */
export function withCallSignal<T extends object>(target: T, call: CallSignal): T {
  (target as { [CALL]?: CallSignal })[CALL] = call;
  return Object.defineProperty(target, 'signal', CALL_SIGNAL);
}

/**
 * A copy of `source` (its own enumerable string keys, in order, as
 * `Object.assign({}, source)` makes it) whose `signal` is `call`'s, defined
 * where `source` has one (else last). Copying `source`'s own `signal` and then
 * redefining it as an accessor would turn the copy into a dictionary-mode
 * object — a microsecond to make, and slower to read — where this copy keeps
 * the fast shape every such copy shares.
 */
export function copyWithCallSignal<T extends object>(source: T, call: CallSignal): T {
  const copy: Record<PropertyKey, unknown> = {};
  copy[CALL] = call;
  let placed = false;
  for (const key of Object.keys(source)) {
    if (key === 'signal') {
      Object.defineProperty(copy, 'signal', CALL_SIGNAL);
      placed = true;
    } else {
      copy[key] = (source as Record<string, unknown>)[key];
    }
  }
  if (!placed) Object.defineProperty(copy, 'signal', CALL_SIGNAL);
  return copy as T;
}

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
  copy.mcpReq = copyWithCallSignal(ctx.mcpReq, new CallSignal(deferred));
  return copy;
}
