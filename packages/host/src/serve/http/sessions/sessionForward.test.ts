/**
 * Relaying a session's request to the replica that holds it: the holder's
 * answer comes back, and only a holder that could not be connected to is
 * reported unreachable (the caller then waits for its heartbeat to expire and
 * takes the session over). A live holder is never taken for unreachable
 * because this process was too busy to see its connection being made.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { forwardToHolder, UNREACHABLE } from './sessionForward.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A holder on a free loopback port that answers every request with its method and body. */
async function holder(): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, body, forwardedBy: req.headers['x-reactor-forwarded-by'] }));
    });
  });
  server.keepAliveTimeout = 1;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback port nothing listens on (a killed holder's): bound, closed, and so refused. */
async function deadPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Blocks this thread for `ms` — an event loop stalled by other work, as on a loaded machine. */
function stallEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ping', arguments: {} } };
const post = () => new Request('http://balancer.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-session-id': 's-1' }, body: JSON.stringify(call) });

describe('forwardToHolder', () => {
  it('relays a request to the holder and answers what the holder answered, naming the relaying node', async () => {
    const answer = await forwardToHolder(post(), call, { holderUrl: await holder(), fromNode: 'node-2' });
    expect(answer).toBeInstanceOf(Response);
    const relayed = answer as Response;
    expect(relayed.status).toBe(200);
    expect(await relayed.json()).toEqual({ method: 'POST', body: JSON.stringify(call), forwardedBy: 'node-2' });
  });

  it('reports a holder that refuses the connection (it was killed) as unreachable', async () => {
    expect(await forwardToHolder(post(), call, { holderUrl: await deadPort(), fromNode: 'node-2' })).toBe(UNREACHABLE);
  });

  it('relays to a live holder when this process stalls past the connect timeout while the connection is made', async () => {
    const url = await holder();
    const relaying = forwardToHolder(post(), call, { holderUrl: url, fromNode: 'node-2', connectTimeoutMs: 50 });
    // The connection is made by the kernel meanwhile, but this process only sees it in the poll phase after the
    // stall — which comes after the timers phase, where the connect timeout is already due.
    stallEventLoop(300);
    const answer = await relaying;
    expect(answer, 'a live holder was reported unreachable').toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(200);
    expect(await (answer as Response).json()).toMatchObject({ method: 'POST', forwardedBy: 'node-2' });
  });
});
