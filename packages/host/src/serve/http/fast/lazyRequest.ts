/**
 * The fetch `Request` the fast path hands the SDK for a Node request (the
 * auth gate reads its headers; handlers see it as `ctx.http.req`), made only
 * when something reads it.
 *
 * Building one costs more than anything else the fast path does of its own:
 * undici parses the URL, fills a `Headers` and makes an `AbortController`
 * for every `Request`, about 13 µs a call in the profile — and on a
 * `tools/call` nothing but a handler that asks for `ctx.http.req` reads it.
 * So the SDK gets a stand-in that is a `Request` to `instanceof` and forwards
 * every read to the real one, made on the first. Properties set on it (the
 * telemetry's request record) stay on the stand-in and make nothing. One
 * visible difference: `util.inspect` (a logger printing the object) shows a
 * proxy's own target, so the stand-in prints as `{}`; its properties read as
 * a `Request`'s.
 */
import type { IncomingMessage } from 'node:http';

/** A `Request` made on first use, whose `signal` aborts when the client goes away. */
export interface LazyRequest {
  /** What the SDK and handlers see. */
  readonly request: Request;
  /** Whether the real `Request` was made (for tests). */
  readonly made: boolean;
  /** The client went away: the request's `signal` aborts (now, or when first read). */
  gone(): void;
}

/**
 * The real request: the Node request's URL and headers (the body was read),
 * its `signal` made only when read — a `signal` given to `new Request`
 * triples what making one costs (undici ties the two with a WeakRef and a
 * FinalizationRegistry), and almost no handler reads it.
 */
class NodeBackedRequest extends Request {
  #controller: AbortController | undefined;
  #gone = false;

  /** What `signal` answers (installed as the accessor below). */
  lazySignal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#gone) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  gone(): void {
    this.#gone = true;
    this.#controller?.abort();
  }
}
// TypeScript types `Request#signal` as a data property, so a class cannot override it with a getter; it is an accessor, replaced here.
Object.defineProperty(NodeBackedRequest.prototype, 'signal', {
  get(this: NodeBackedRequest): AbortSignal {
    return this.lazySignal();
  },
  configurable: true,
});

/** The fetch `Request` for the Node request, built as the SDK's `toWebRequest` builds it for the per-request path. */
function nodeBackedRequest(req: IncomingMessage): NodeBackedRequest {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  // `:authority` for HTTP/2.
  const authority = req.headers.host ?? req.headers[':authority'];
  return new NodeBackedRequest(`http://${typeof authority === 'string' ? authority : 'localhost'}${req.url ?? '/'}`, { method: 'POST', headers });
}

/**
 * The stand-in for `req`'s fetch `Request`; `onMade` is told when the real
 * one is made. `own` holds properties the stand-in carries from the start
 * (the telemetry's request record): setting one later goes through the
 * proxy's slow path, about a microsecond.
 */
export function lazyRequest(req: IncomingMessage, onMade?: () => void, own: Record<PropertyKey, unknown> = {}): LazyRequest {
  return new StandIn(req, onMade, own);
}

/**
 * A class, not an object literal with a `made` getter: on Node 20 (V8 11.3)
 * an accessor whose function is made per object gives each object a map of
 * its own, and the map, in the old generation, keeps the accessor's closure
 * (and the request it reaches) alive through every young-generation
 * collection until a full one. One per request made about a tenth of all
 * allocation survive to be promoted (`--trace-gc-nvp`); a getter on the
 * prototype is shared and keeps nothing.
 */
class StandIn implements LazyRequest {
  readonly request: Request;
  #real: NodeBackedRequest | undefined;
  #gone = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly onMade: (() => void) | undefined,
    own: Record<PropertyKey, unknown>,
  ) {
    // What is set on the stand-in stays on it (the target); everything else is the real request's.
    this.request = new Proxy(own, {
      get: (target, key) => {
        if (Object.hasOwn(target, key)) return target[key];
        const made = this.#make();
        const value: unknown = Reflect.get(made, key, made);
        // Methods run on the real request: undici checks what `this` is.
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(made) : value;
      },
      has: (target, key) => Object.hasOwn(target, key) || key in this.#make(),
      getPrototypeOf: () => Request.prototype,
    }) as unknown as Request;
  }

  get made(): boolean {
    return this.#real !== undefined;
  }

  gone(): void {
    this.#gone = true;
    this.#real?.gone();
  }

  #make(): NodeBackedRequest {
    if (!this.#real) {
      this.#real = nodeBackedRequest(this.req);
      if (this.#gone) this.#real.gone();
      this.onMade?.();
    }
    return this.#real;
  }
}
