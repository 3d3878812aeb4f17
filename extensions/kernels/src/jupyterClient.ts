/**
 * One connection to a Jupyter Server through the official client,
 * `@jupyterlab/services`: its individual managers (kernelspecs, kernels,
 * sessions, contents), not `ServiceManager` (which also polls terminals,
 * settings, workspaces, events and more that this extension never uses).
 *
 * The token travels in the `Authorization` header only — REST requests get
 * it from the library; WebSockets through a `ws` subclass that adds the same
 * header, with `appendToken` off so it never appears in a URL (or a log).
 * Every REST request carries a time limit, so no call hangs on a server that
 * stopped answering.
 */
import { ContentsManager, KernelAPI, KernelManager, KernelSpecAPI, ServerConnection, SessionAPI, SessionManager } from '@jupyterlab/services';
import { isReactorError } from '@reactor/host';
import WebSocket from 'ws';
import { kernelError, messageOf } from './errors.js';

/** Where a client connects. */
export interface JupyterEndpoint {
  readonly url: string;
  readonly token: string;
}

/** The managers this extension uses, sharing one settings object. */
export interface JupyterClient {
  readonly endpoint: JupyterEndpoint;
  readonly settings: ServerConnection.ISettings;
  /** Kernelspecs, read on demand. */
  readonly kernelspecs: KernelSpecAPI.KernelSpecAPIClient;
  /** Connects to kernels (and shuts them down). */
  readonly kernels: KernelManager;
  /** Starts and connects to notebook sessions. */
  readonly sessions: SessionManager;
  /** Lists running kernels and sessions: unlike the managers' polls, these throw when the server is gone. */
  readonly kernelsApi: KernelAPI.KernelAPIClient;
  readonly sessionsApi: SessionAPI.SessionAPIClient;
  /** Reads and saves notebooks. */
  readonly contents: ContentsManager;
  /** Stops the managers' polling and closes their connections. */
  dispose(): void;
}

/** A `ws` WebSocket that authenticates with the token in a header. */
export function tokenWebSocket(token: string): new (address: string | URL, protocols?: string | string[]) => WebSocket {
  return class TokenWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, token === '' ? {} : { headers: { Authorization: `token ${token}` } });
    }
  };
}

/** `fetch` with a time limit on every request. */
export function fetchWithTimeout(timeoutMs: number): typeof fetch {
  return (input, init) => {
    const limit = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, limit]) : limit;
    return fetch(input, { ...init, signal });
  };
}

/** Connects to a Jupyter Server (no request is made until a manager is used). */
export function createJupyterClient(endpoint: JupyterEndpoint, requestTimeoutMs: number): JupyterClient {
  const settings = ServerConnection.makeSettings({
    baseUrl: endpoint.url,
    token: endpoint.token,
    appendToken: false,
    // The library types these with the DOM's classes; Node's and ws's are what it runs with outside a browser.
    fetch: fetchWithTimeout(requestTimeoutMs) as unknown as ServerConnection.ISettings['fetch'],
    WebSocket: tokenWebSocket(endpoint.token) as unknown as ServerConnection.ISettings['WebSocket'],
  });
  // The managers never poll in the background (standby): that would keep hitting a server nobody is using
  // and swallow its failures. Listings go through the REST clients, which say when the server is gone.
  const standby = () => true;
  const kernels = new KernelManager({ serverSettings: settings, standby });
  const sessions = new SessionManager({ serverSettings: settings, kernelManager: kernels, standby });
  const contents = new ContentsManager({ serverSettings: settings });
  // Their `ready` promises wait on a first poll that standby never runs; disposing rejects them. Nothing
  // here awaits them, so a rejection is expected and must not surface as an unhandled one.
  for (const manager of [kernels, sessions]) manager.ready.catch(() => {});
  return {
    endpoint,
    settings,
    kernelspecs: new KernelSpecAPI.KernelSpecAPIClient({ serverSettings: settings }),
    kernels,
    sessions,
    kernelsApi: new KernelAPI.KernelAPIClient({ serverSettings: settings }),
    sessionsApi: new SessionAPI.SessionAPIClient({ serverSettings: settings }),
    contents,
    dispose: () => {
      sessions.dispose();
      kernels.dispose();
      contents.dispose();
    },
  };
}

/** The server's address without credentials, for messages. */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  return parsed.href;
}

/**
 * Turns a failure of a request to Jupyter into a clear error: an unreachable
 * server, a timed-out request, a refused token, or the server's own message.
 */
export function jupyterFailure(endpoint: JupyterEndpoint, doing: string, error: unknown): Error {
  if (isReactorError(error)) return error; // already says what happened
  const where = `the Jupyter Server at ${displayUrl(endpoint.url)}`;
  if (error instanceof ServerConnection.ResponseError) {
    const status = error.response.status;
    if (status === 401 || status === 403) {
      return kernelError(where, `refused to ${doing} (${status}): the token was not accepted`, { hint: 'check REACTOR_JUPYTER_TOKEN (or the "token" option)', cause: error });
    }
    return kernelError(where, `could not ${doing} (${status}: ${error.message})`, { cause: error });
  }
  const text = messageOf(error);
  if (error instanceof Error && (error.name === 'TimeoutError' || /timed? ?out|aborted/i.test(text))) {
    return kernelError(where, `did not answer in time while trying to ${doing}`, { hint: 'the server may be overloaded or stopped; try again, or check it', cause: error });
  }
  if (error instanceof ServerConnection.NetworkError || error instanceof TypeError || /ECONNREFUSED|fetch failed|socket hang up/i.test(text)) {
    return kernelError(where, `is not reachable (${text}) while trying to ${doing}`, {
      hint: 'check that the Jupyter Server is running; with REACTOR_JUPYTER=auto, restart this server to start a new one',
      cause: error,
    });
  }
  return kernelError(where, `could not ${doing} (${text})`, { cause: error });
}
