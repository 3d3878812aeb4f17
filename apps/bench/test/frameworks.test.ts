/**
 * Every server of the benchmark answers the driver's requests correctly —
 * the same checks the benchmark applies to each answer — so a protocol or
 * SDK change cannot leave the benchmark timing errors (nor the ceiling replaying one). In-process, on
 * 127.0.0.1 with free ports; counts answers, never times them.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildHost, loadExtensions, silentLogger } from '@reactor/host';
import { fixtureExtension, startSummary, TOOLS_PER_EXTENSION, writeFixtureApp } from '../src/driver/coldStart.js';
import { runLoad, Target } from '../src/driver/load.js';
import { wireRequest, type Era, type Method } from '../src/driver/wire.js';
import { ceilingHandler } from '../src/frameworks/ceiling.js';
import { floorHandler } from '../src/frameworks/floor.js';
import { startFastmcp } from '../src/frameworks/fastmcp.js';
import { reactorApp } from '../src/frameworks/reactor.js';
import { reactorTelemetryApps } from '../src/frameworks/reactorTelemetry.js';
import { FLOOR_SCOPE } from '../src/frameworks/sdkFloor.js';
import { sdkPerRequest, sdkPerSession, sdkSession } from '../src/frameworks/sdk.js';

const TOOLS = 5;
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function listen(listener: RequestListener): Promise<Server> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return server;
}

function target(name: string, server: Server): Target {
  const t = new Target(name, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, 2);
  closers.push(() => t.close());
  return t;
}

/** Sends a few requests of each kind; runLoad throws on the first wrong answer. */
async function answersCorrectly(t: Target, eras: readonly Era[], sessionId?: string): Promise<number> {
  let answered = 0;
  for (const era of eras) {
    for (const method of ['tools/list', 'tools/call'] as Method[]) {
      const result = await runLoad({ target: t, era, method, tools: TOOLS, ...(sessionId !== undefined ? { sessionId } : {}) }, { durationMs: 0, concurrency: 2, minRequests: 3 });
      answered += result.requests;
    }
  }
  return answered;
}

describe('the servers answer the driver correctly', () => {
  it('Reactor, stateless: 2025 stateless and 2026-07-28 requests', async () => {
    const app = await reactorApp(TOOLS, { sessions: false });
    closers.push(() => app.close());
    expect(await answersCorrectly(target('reactor', await listen(app)), ['2025-stateless', '2026'])).toBeGreaterThanOrEqual(12);
  });

  it('Reactor with sessions: requests on a session', async () => {
    const app = await reactorApp(TOOLS, { sessions: true });
    closers.push(() => app.close());
    const t = target('reactor sessions', await listen(app));
    expect(await answersCorrectly(t, ['2025-session'], await t.openSession())).toBeGreaterThanOrEqual(6);
    expect(app.sessionCount).toBe(1);
  });

  it('Reactor with OpenTelemetry off at /mcp, on at /otel, against no-op providers at /otel-api, spans only at /otel-traces, the histogram only at /otel-metrics, one process: all answer; only /otel and /otel-traces record spans', async () => {
    const apps = await reactorTelemetryApps(TOOLS);
    closers.push(() => apps.close());
    const t = target('reactor telemetry', await listen(apps.listener));
    const call = (path: string) => runLoad({ target: t, era: '2026', method: 'tools/call', tools: TOOLS, path }, { durationMs: 0, concurrency: 2, minRequests: 4 });
    expect((await call('/mcp')).requests).toBeGreaterThanOrEqual(4);
    await apps.flush();
    expect(apps.exportedSpans()).toBe(0);
    expect((await call('/otel-api')).requests).toBeGreaterThanOrEqual(4);
    await apps.flush();
    expect(apps.exportedSpans()).toBe(0);
    const metrics = await call('/otel-metrics');
    expect(metrics.requests).toBeGreaterThanOrEqual(4);
    await apps.flush();
    expect(apps.exportedSpans()).toBe(0);
    expect(apps.recordedOperations('@reactor/host')).toBe(metrics.requests);
    const on = await call('/otel');
    await apps.flush();
    // One server span per tools/call, handed to the (dropping) exporter, and one histogram point.
    expect(apps.exportedSpans()).toBe(on.requests);
    expect(apps.recordedOperations('@reactor/host')).toBe(metrics.requests + on.requests);
    const traces = await call('/otel-traces');
    await apps.flush();
    expect(apps.exportedSpans()).toBe(on.requests + traces.requests);
  });

  it("the SDK's floor at /otel-sdk: a host with telemetry off answers, and each call leaves one span and one operation-duration point under the floor's own scope", async () => {
    const apps = await reactorTelemetryApps(TOOLS);
    closers.push(() => apps.close());
    const t = target('reactor telemetry', await listen(apps.listener));
    const floor = await runLoad({ target: t, era: '2026', method: 'tools/call', tools: TOOLS, path: '/otel-sdk' }, { durationMs: 0, concurrency: 2, minRequests: 4 });
    expect(floor.requests).toBeGreaterThanOrEqual(4);
    await apps.flush();
    expect(apps.exportedSpans()).toBe(floor.requests);
    expect(apps.recordedOperations(FLOOR_SCOPE)).toBe(floor.requests);
    // The host itself recorded nothing: its telemetry is off there.
    expect(apps.recordedOperations('@reactor/host')).toBe(0);
  });

  it('the SDK, a fresh server per request: 2025 stateless and 2026-07-28 requests', async () => {
    expect(await answersCorrectly(target('sdk per request', await listen(sdkPerRequest(TOOLS))), ['2025-stateless', '2026'])).toBeGreaterThanOrEqual(12);
  });

  it('the SDK, one long-lived session, and a server per session', async () => {
    const one = target('sdk session', await listen(await sdkSession(TOOLS)));
    expect(await answersCorrectly(one, ['2025-session'], await one.openSession())).toBeGreaterThanOrEqual(6);
    const each = target('sdk per session', await listen(sdkPerSession(TOOLS)));
    expect(await answersCorrectly(each, ['2025-session'], await each.openSession())).toBeGreaterThanOrEqual(6);
    expect(await answersCorrectly(each, ['2025-session'], await each.openSession())).toBeGreaterThanOrEqual(6);
  });

  it('the ceiling: bare node:http replays what Reactor answers to 2026-07-28 requests, with each request\'s id', async () => {
    expect(await answersCorrectly(target('ceiling', await listen(await ceilingHandler(TOOLS))), ['2026'])).toBeGreaterThanOrEqual(6);
  });

  it('the floor: bare node:http answers a 2026-07-28 tools/call itself, with the very bytes the ceiling replays', async () => {
    const floor = target('floor', await listen(await floorHandler(TOOLS)));
    const result = await runLoad({ target: floor, era: '2026', method: 'tools/call', tools: TOOLS }, { durationMs: 0, concurrency: 2, minRequests: 3 });
    expect(result.requests).toBeGreaterThanOrEqual(3);
    const ceiling = target('ceiling', await listen(await ceilingHandler(TOOLS)));
    const request = wireRequest('2026', 'tools/call', TOOLS, 42);
    const [fromFloor, fromCeiling] = await Promise.all([floor.send(request), ceiling.send(request)]);
    expect(fromFloor.body).toBe(fromCeiling.body);
    // It does the work: arguments its schema refuses are refused.
    const bad = { ...request, body: request.body.replace('"query":"x"', '"query":5') };
    expect(bad.body).not.toBe(request.body);
    expect((await floor.send(bad)).status).toBe(400);
  });

  it('fastmcp, stateless: 2025 stateless requests', async () => {
    const { server, stop } = await startFastmcp(TOOLS);
    closers.push(stop);
    expect(await answersCorrectly(target('fastmcp', server), ['2025-stateless'])).toBeGreaterThanOrEqual(6);
  });
});

describe('the cold-start fixture', () => {
  it('holds the opt-in extensions (listed from package.json, not imported) and serves the other two', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'reactor-bench-test-'));
    try {
      const app = await writeFixtureApp(root, [fixtureExtension(0, false), fixtureExtension(1, false), ...[2, 3, 4].map((i) => fixtureExtension(i, true))]);
      const host = await buildHost(await loadExtensions({ root: app, logger: silentLogger }), { logger: silentLogger });
      const states = host.report().extensions.map((e) => [e.name, e.state]);
      expect(states).toEqual([['bench00', 'active'], ['bench01', 'active'], ['bench02', 'held'], ['bench03', 'held'], ['bench04', 'held']]);
      expect((await host.build()).toolNames).toHaveLength(2 * TOOLS_PER_EXTENSION);
      await host.stop();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('reads the command\'s start-up summary once its line is whole', () => {
    const line = JSON.stringify({ level: 30, url: 'http://127.0.0.1:4321/mcp', loaded: ['a@1 (active)'], held: ['b@1 (onToolset:b)'] });
    expect(startSummary(line.slice(0, 20))).toBeUndefined();
    expect(startSummary(`{"level":30,"msg":"x"}\n${line}\n`)).toEqual({ url: 'http://127.0.0.1:4321/mcp', loaded: ['a@1 (active)'], held: ['b@1 (onToolset:b)'] });
  });
});
