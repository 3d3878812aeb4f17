/**
 * The fast path answers exactly what the SDK's per-request path answers.
 * Generated requests (valid and invalid, every kind listed in
 * `helpers/differential.ts`), each sent over loopback HTTP to an app with
 * the fast path and to an app without it, both serving one host: status,
 * every header but framing and the date, and the JSON-RPC messages of the
 * body must be equal. Two pairs: auth off (sessions off), and auth on
 * (sessions on, toolset scopes), both reading a tenant from `x-tenant`. Both
 * eras: 2026-07-28 requests and 2025 stateless ones. 100,000 requests by default;
 * `REACTOR_DIFFERENTIAL_COUNT` and `REACTOR_DIFFERENTIAL_SEED` change that.
 */
import { Agent } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpApp, type McpAppOptions, type McpHost } from '../src/index.js';
import { differentialHost, requestArbitrary, sealedStateFrom, send, tenantOf, verifier, type Answer, type GeneratedRequest } from './helpers/differential.js';
import { listen, type Listening } from './helpers/http.js';
import { HOST_STATS } from '../src/host/internals.js';

const COUNT = Number(process.env.REACTOR_DIFFERENTIAL_COUNT ?? 100_000);
const SEED = Number(process.env.REACTOR_DIFFERENTIAL_SEED ?? 20_261_202);
const MAX_BODY_BYTES = 8192;
/** Requests in flight per pair (each is sent to both apps at once). */
const CONCURRENCY = 16;

interface Pair {
  readonly name: string;
  readonly fast: Listening;
  readonly sdk: Listening;
}

describe('the fast path, against the SDK per-request path', () => {
  let host: McpHost;
  const pairs: Pair[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });

  beforeAll(async () => {
    host = await differentialHost();
    const variants: Array<[string, McpAppOptions]> = [
      ['auth off', { sessions: false, nodeId: 'node-a', maxBodyBytes: MAX_BODY_BYTES, tenant: tenantOf }],
      ['auth on', { nodeId: 'node-b', maxBodyBytes: MAX_BODY_BYTES, tenant: tenantOf, auth: { verifier, resourceServerUrl: 'https://mcp.example.com/mcp', scopesSupported: ['mcp', 'admin'] } }],
    ];
    for (const [name, options] of variants) {
      pairs.push({ name, fast: await listen(createMcpApp(host, { ...options, fastPath: true })), sdk: await listen(createMcpApp(host, { ...options, fastPath: false })) });
    }
  });
  afterAll(async () => {
    agent.destroy();
    for (const pair of pairs) {
      await pair.fast.close();
      await pair.sdk.close();
    }
    await host.stop();
  });

  it(`answers ${COUNT} generated requests identically (status, headers, JSON-RPC messages)`, async () => {
    const started = performance.now();
    const fastBefore = host[HOST_STATS].fastAnswers;
    const context = { sealedState: await sealedStateFrom(pairs[0]!.sdk.origin) };
    const requests = fc.sample(fc.tuple(fc.nat({ max: pairs.length - 1 }), requestArbitrary(MAX_BODY_BYTES, context)), { numRuns: COUNT, seed: SEED });
    const counts = new Map<string, number>();
    const differences: Array<{ pair: string; request: GeneratedRequest; fast: Answer; sdk: Answer }> = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < requests.length) {
        const [which, request] = requests[next++]!;
        const pair = pairs[which]!;
        const kind = `${request.kind} (${pair.name})`;
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
        const [fast, sdk] = await Promise.all([send(agent, new URL(pair.fast.origin), request), send(agent, new URL(pair.sdk.origin), request)]);
        // node:util's deep equality (vitest's toEqual costs more per answer; it reports the differences below).
        if (!isDeepStrictEqual(fast, sdk) && differences.length < 10) differences.push({ pair: pair.name, request, fast, sdk });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY * pairs.length }, worker));
    const seconds = (performance.now() - started) / 1000;
    const table = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => `  ${String(n).padStart(6)}  ${kind}`);
    const fastAnswers = host[HOST_STATS].fastAnswers - fastBefore;
    process.stderr.write(`fast path differential: ${requests.length} requests (seed ${SEED}) in ${seconds.toFixed(1)} s, ${fastAnswers} answered by the fast path, ${differences.length} answered differently\n${table.join('\n')}\n`);
    expect(differences).toEqual([]);
    // The comparison means something only if the fast path answered a good share (the valid kinds).
    expect(fastAnswers).toBeGreaterThan(requests.length / 4);
  }, 600_000);
});
