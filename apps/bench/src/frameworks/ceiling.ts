/**
 * The ceiling: a bare `node:http` server answering the bytes Reactor answers.
 * At start it asks an in-process Reactor app (the same catalogue) one
 * 2026-07-28 `tools/list` and one `tools/call`, keeps each answer's status,
 * content type and body, and from then on answers every request with the
 * captured body of its method, the request's JSON-RPC id spliced in. It does
 * the least a correct server must (read the body, find the method and the id)
 * and nothing else: what per-request serving could cost at the limit.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { wireRequest, type Method } from '../driver/wire.js';
import { reactorApp } from './reactor.js';

/** One captured answer, split around its id so any id can be spliced in. */
export interface CapturedAnswer {
  readonly status: number;
  readonly contentType: string;
  /** The whole body, as Reactor sent it. */
  readonly body: string;
  readonly before: Buffer;
  readonly after: Buffer;
}

const CAPTURE_ID = 987_654_321;
const METHODS: readonly Method[] = ['tools/list', 'tools/call'];

/** Asks Reactor (on a loopback port of its own) for the answers the ceiling replays. */
export async function captureAnswers(count: number): Promise<Map<Method, CapturedAnswer>> {
  const app = await reactorApp(count, { sessions: false });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await captureAnswersFrom(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, count);
  } finally {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Asks a running Reactor server at `origin` (`/mcp`) for the answers the ceiling replays (the command phase: the command itself). */
export async function captureAnswersFrom(origin: string, count: number): Promise<Map<Method, CapturedAnswer>> {
  const answers = new Map<Method, CapturedAnswer>();
  for (const method of METHODS) {
    const request = wireRequest('2026', method, count, CAPTURE_ID);
    const response = await fetch(`${origin}/mcp`, { method: 'POST', headers: request.headers, body: request.body });
    const body = await response.text();
    const needle = `"id":${CAPTURE_ID}`;
    const at = body.indexOf(needle);
    if (at < 0) throw new Error(`the ceiling could not capture ${method}: Reactor answered HTTP ${response.status} ${body.slice(0, 200)}`);
    answers.set(method, {
      status: response.status,
      contentType: response.headers.get('content-type') ?? 'application/json',
      body,
      before: Buffer.from(`${body.slice(0, at)}"id":`),
      after: Buffer.from(body.slice(at + needle.length)),
    });
  }
  return answers;
}

const ID = /"id":(\d+)/;
const METHOD = /"method":"(tools\/list|tools\/call)"/;

/** The ceiling's request handler for `count` catalogue tools; the answers are captured from `from` (an origin) when given, else from an in-process app. */
export async function ceilingHandler(count: number, from?: string): Promise<RequestListener> {
  const answers = from === undefined ? await captureAnswers(count) : await captureAnswersFrom(from, count);
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = answers.get((METHOD.exec(body)?.[1] ?? '') as Method);
      const id = ID.exec(body)?.[1];
      if (!answer || id === undefined) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('the ceiling answers tools/list and tools/call with a numeric id only');
        return;
      }
      const idBytes = Buffer.from(id);
      res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': answer.before.length + idBytes.length + answer.after.length });
      res.end(Buffer.concat([answer.before, idBytes, answer.after]));
    });
  };
}
