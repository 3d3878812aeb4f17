/**
 * Many clients at once, of every kind, on mixed selections — including the
 * first requests for a held extension, which wake it once — all get exactly
 * the tools their own URL asked for.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMcpApp, type McpHost } from '../src/index.js';
import { fixtureHost, heldBenchmarks } from './helpers/fixtures.js';
import { CLIENT_KINDS, connectClient, listen, type Listening } from './helpers/http.js';

let host: McpHost;
let served: Listening;
const held = heldBenchmarks();

beforeAll(async () => {
  host = await fixtureHost({}, [], held);
  served = await listen(createMcpApp(host));
});
afterAll(async () => {
  await served.close();
  await host.stop();
});

const selections: Array<{ path: string; headers?: Record<string, string>; tools: string[] }> = [
  { path: '/mcp', tools: ['list_spaces', 'whoami'] },
  { path: '/mcp?benchmarks', tools: ['list_spaces', 'run_benchmark', 'whoami'] },
  { path: '/mcp/only=library', tools: ['find_book', 'whoami'] },
  { path: '/mcp', headers: { 'x-mcp-toolsets': 'only=benchmarks,library' }, tools: ['find_book', 'run_benchmark', 'whoami'] },
  { path: '/mcp?without=spaces', tools: ['whoami'] },
  { path: '/mcp?library&nosuch', tools: ['find_book', 'list_spaces', 'whoami'] },
  { path: '/mcp/toolsets=benchmarks?only=benchmarks', tools: ['run_benchmark', 'whoami'] },
  { path: '/mcp?only=', tools: ['whoami'] },
];

it('serves 24 parallel clients on mixed selections, each its own tool list', async () => {
  const jobs = Array.from({ length: 24 }, (_, i) => ({ kind: CLIENT_KINDS[i % CLIENT_KINDS.length]!, ...selections[i % selections.length]! }));
  const results = await Promise.all(
    jobs.map(async (job) => {
      const client = await connectClient(job.kind, served.url(job.path), job.headers);
      try {
        const first = (await client.toolNames()).sort();
        const second = (await client.toolNames()).sort();
        return { job, first, second };
      } finally {
        await client.close();
      }
    }),
  );
  for (const { job, first, second } of results) {
    expect({ kind: job.kind, path: job.path, tools: first }).toEqual({ kind: job.kind, path: job.path, tools: job.tools });
    expect(second).toEqual(first);
  }
  // The held extension was imported once, however many clients asked at the same time.
  expect(held.loads()).toBe(1);
});
