/**
 * The host's internals stay inside the package: `McpHost` keys them by the
 * symbols of `internals.ts`, which no entry point exports, so neither its
 * published type nor its objects have a member by the names they once had
 * (`@internal` members anyone could call).
 */
import { describe, expect, it } from 'vitest';
import * as api from '../index.js';
import { buildHost, McpHost, silentLogger } from '../index.js';
import * as testing from '../testing/index.js';
import * as testingVitest from '../testing/vitest.js';
import * as internals from './internals.js';
import { BUILT_BLUEPRINT, HOST_BUILD_NOW, HOST_CACHE_SIZES, HOST_NOTIFY_SUBSCRIBED_SESSIONS, HOST_REQUEST_TELEMETRY, HOST_STARTUP_PROBLEMS, HOST_STATS, HOST_USAGE } from './internals.js';

const FORMER_NAMES = ['buildNow', 'stats', 'usage', 'requestTelemetry', 'notifySubscribedSessions', 'cacheSizes', 'startupProblems'];

describe("McpHost's internals", () => {
  it('are no members by name, on the prototype or on a host', async () => {
    const host = await buildHost([], { logger: silentLogger });
    const named = new Set([...Object.getOwnPropertyNames(McpHost.prototype), ...Object.getOwnPropertyNames(host)]);
    expect(FORMER_NAMES.filter((name) => named.has(name) || name in host)).toEqual([]);
  });

  it('are no members of the published type (a use of one by name fails to compile)', () => {
    const host = new McpHost({ logger: silentLogger });
    // @ts-expect-error internal: keyed by HOST_BUILD_NOW
    expect(host.buildNow).toBeUndefined();
    // @ts-expect-error internal: keyed by HOST_STATS
    expect(host.stats).toBeUndefined();
    // @ts-expect-error internal: keyed by HOST_USAGE
    expect(host.usage).toBeUndefined();
    // @ts-expect-error internal: keyed by HOST_REQUEST_TELEMETRY
    expect(host.requestTelemetry).toBeUndefined();
    // @ts-expect-error internal: keyed by HOST_NOTIFY_SUBSCRIBED_SESSIONS
    expect(host.notifySubscribedSessions).toBeUndefined();
    // @ts-expect-error internal: keyed by HOST_CACHE_SIZES
    expect(host.cacheSizes).toBeUndefined();
    // @ts-expect-error internal: keyed by HOST_STARTUP_PROBLEMS
    expect(host.startupProblems).toBeUndefined();
  });

  it('are reached inside the package by their symbols', async () => {
    const host = await buildHost([], { logger: silentLogger });
    expect(host[HOST_STATS].blueprints).toBe(0);
    const built = await host[HOST_BUILD_NOW]();
    expect(host[HOST_USAGE].selections).toBe(1);
    expect(built[BUILT_BLUEPRINT].key).toBe(built.key);
    expect(host[HOST_CACHE_SIZES]().blueprints).toBe(1);
    expect(host[HOST_REQUEST_TELEMETRY]()).toBeUndefined();
    expect(await host[HOST_NOTIFY_SUBSCRIBED_SESSIONS]('file:///nothing')).toBe(0);
    expect(host[HOST_STARTUP_PROBLEMS]()).toEqual([]);
  });

  it('are keyed by symbols no entry point exports', () => {
    const entries: ReadonlyArray<Record<string, unknown>> = [api, testing, testingVitest];
    const exportedNames = new Set(entries.flatMap((entry) => Object.keys(entry)));
    const exportedValues = new Set<unknown>(entries.flatMap((entry) => Object.values(entry)));
    expect(Object.keys(internals).filter((name) => exportedNames.has(name))).toEqual([]);
    expect(Object.values(internals).filter((symbol) => exportedValues.has(symbol))).toEqual([]);
  });

  it("leave a built server's blueprint off its named members", async () => {
    const built = await (await buildHost([], { logger: silentLogger })).build();
    expect(Object.keys(built)).not.toContain('blueprint');
    expect(Object.getOwnPropertySymbols(built)).toEqual([BUILT_BLUEPRINT]);
  });
});
