/**
 * The load loop: a fixed number of requests in flight over keep-alive
 * connections (undici), for a fixed time, every answer checked. Reports
 * completed requests per second.
 */
import { Pool } from 'undici';
import { checkAnswer, initializeRequests, wireRequest, type Era, type Method, type WireRequest } from './wire.js';

/** A connection pool to one server. */
export class Target {
  readonly pool: Pool;

  constructor(
    readonly name: string,
    readonly origin: string,
    connections: number,
  ) {
    this.pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  }

  /** Sends one request to `path` (`/mcp` unless told); the status, content type and body text. */
  async send(request: WireRequest, path = '/mcp'): Promise<{ status: number; contentType: string | undefined; sessionId: string | undefined; body: string }> {
    const response = await this.pool.request({ path, method: 'POST', headers: request.headers, body: request.body });
    const body = await response.body.text();
    const header = (name: string) => {
      const value = response.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    return { status: response.statusCode, contentType: header('content-type'), sessionId: header('mcp-session-id'), body };
  }

  /** Opens a 2025 session (initialize, then notifications/initialized); its id. */
  async openSession(): Promise<string> {
    const { initialize, initialized } = initializeRequests();
    const opened = await this.send(initialize);
    if (opened.status !== 200 || opened.sessionId === undefined) throw new Error(`${this.name}: initialize answered HTTP ${opened.status} without a session: ${opened.body.slice(0, 300)}`);
    const done = await this.send(initialized(opened.sessionId));
    if (done.status !== 202 && done.status !== 200) throw new Error(`${this.name}: notifications/initialized answered HTTP ${done.status}: ${done.body.slice(0, 300)}`);
    return opened.sessionId;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** One load: which server, how, what. */
export interface Load {
  readonly target: Target;
  readonly era: Era;
  readonly method: Method;
  readonly tools: number;
  /** For `2025-session`: the session to send on. */
  readonly sessionId?: string;
  /** The endpoint with its selection (`/mcp` unless told). */
  readonly path?: string;
}

/** What one timed run measured. */
export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  /** Completed, checked requests per second. */
  readonly rate: number;
}

let nextId = 1;

/** The body with its one `"id":<id>` taken out, or undefined when it is not there exactly once. */
export function withoutId(body: string, id: number): string | undefined {
  const needle = `"id":${id}`;
  const at = body.indexOf(needle);
  if (at < 0 || body.indexOf(needle, at + needle.length) >= 0) return undefined;
  // The id must end there ("id":12 is not "id":123).
  const next = body.charCodeAt(at + needle.length);
  if (next >= 48 && next <= 57) return undefined;
  return body.slice(0, at) + body.slice(at + needle.length);
}

/** How long and how hard one load runs. */
export interface LoadOptions {
  readonly durationMs: number;
  readonly concurrency: number;
  readonly minRequests: number;
}

/**
 * Keeps `concurrency` requests in flight for `durationMs` (at least
 * `minRequests` complete), checking every answer; a wrong answer throws.
 */
export async function runLoad(load: Load, options: LoadOptions): Promise<LoadResult> {
  const start = performance.now();
  const deadline = start + options.durationMs;
  let done = 0;
  // An answer identical (its id aside) to one that passed the full check is right too;
  // comparing strings costs far less than parsing a 300 kB list, so the driver stays light.
  let verified: string | undefined;
  const worker = async () => {
    while (performance.now() < deadline || done < options.minRequests) {
      const id = nextId++;
      const answer = await load.target.send(wireRequest(load.era, load.method, load.tools, id, load.sessionId), load.path);
      const shape = answer.status === 200 ? withoutId(answer.body, id) : undefined;
      if (shape === undefined || shape !== verified) {
        try {
          checkAnswer(load.method, load.tools, id, answer.status, answer.body, answer.contentType);
        } catch (error) {
          throw new Error(`${load.target.name} (${load.era} ${load.method}, ${load.tools} tools): ${(error as Error).message}`, { cause: error });
        }
        verified = shape;
      }
      done++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  return { requests: done, seconds, rate: done / seconds };
}
