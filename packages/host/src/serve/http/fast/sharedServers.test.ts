import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostBuiltServer } from '../../../host/build/builtServer.js';
import { buildHost, type McpHost } from '../../../host/host.js';
import { BUILT_BLUEPRINT, HOST_STATS } from '../../../host/internals.js';
import { defineExtension } from '../../../contract/extension.js';
import { silentLogger } from '../../../kernel/logger.js';
import { parseSelection, selectionToQuery, type Selection } from '../../../selection/selection.js';
import { defineTool } from '../../../contract/tool.js';
import type { ExchangeSink } from './sharedExchange.js';
import { LEGACY_STATELESS, MAX_SHARED_SERVERS, RecentQueries, SharedServers, type SharedServer } from './sharedServers.js';

/** A selection that counts how often its names are read (what writing its query does). */
function counted(name: string): { selection: Selection; reads: () => number } {
  const parsed = parseSelection(`toolsets=${name}`);
  let reads = 0;
  const selection = {
    ...parsed,
    get named() {
      reads++;
      return parsed.named;
    },
  } as Selection;
  return { selection, reads: () => reads };
}

describe('RecentQueries', () => {
  it('answers a selection\'s canonical query (as JSON text), written once for a selection seen again', () => {
    const queries = new RecentQueries();
    const { selection, reads } = counted('b,a');
    expect(queries.textOf(selection)).toBe('"toolsets=a,b"');
    const written = reads();
    expect(queries.textOf(selection)).toBe('"toolsets=a,b"');
    expect(reads()).toBe(written);
  });

  it('finds selections by identity, not by what they say, and stays right for more selections than it keeps', () => {
    const queries = new RecentQueries();
    const made = Array.from({ length: 20 }, (_, i) => parseSelection(i % 2 === 0 ? `toolsets=t${i}` : `without=w${i}&only=o${i}`));
    for (let round = 0; round < 3; round++) for (const selection of made) expect(queries.textOf(selection)).toBe(JSON.stringify(selectionToQuery(selection)));
    // Two equal selections made apart are two entries, each with the same answer.
    const [one, two] = [parseSelection('toolsets=x'), parseSelection('toolsets=x')];
    expect(queries.textOf(one)).toBe(queries.textOf(two));
    expect(queries.textOf(parseSelection(''))).toBe('""');
  });
});

describe('SharedServers', () => {
  const TOOLS = 12;
  let host: McpHost;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  beforeAll(async () => {
    host = await buildHost(
      [
        defineExtension({
          manifest: { name: 'wide', version: '1.0.0' },
          toolsets: () => [{ name: 'wide' }],
          tools: () => [
            ...Array.from({ length: TOOLS }, (_, i) => defineTool({ name: `t${i}`, description: `Tool ${i}.`, handler: () => `t${i}` })),
            defineTool({ name: 'held', description: 'Answers once released.', handler: async () => (await released, 'released') }),
          ],
        }),
      ],
      { logger: silentLogger },
    );
  });
  afterAll(async () => {
    await host.stop();
  });

  /** The shared 2025 stateless server of `tools=`'s `n`th distinct value: each a new view, so a new blueprint. */
  async function serverOf(servers: SharedServers, n: number): Promise<SharedServer> {
    const selection = parseSelection(`tools=held,${Array.from({ length: TOOLS }, (_, bit) => bit).filter((bit) => (n >> bit) & 1).map((bit) => `t${bit}`).join(',')}`);
    const built = (await host.build(selection)) as HostBuiltServer;
    const shared = await servers.serverFor(built, built[BUILT_BLUEPRINT], selection, LEGACY_STATELESS, { clientInfo: undefined, clientCapabilities: undefined });
    expect(shared).toBeDefined();
    return shared!;
  }

  it('shares a server between requests of one client identity, and only between them: none is the same as null, {} only as {}', async () => {
    const servers = new SharedServers(host[HOST_STATS]);
    const selection = parseSelection('');
    const built = (await host.build(selection)) as HostBuiltServer;
    const serverFor = (clientInfo: unknown, clientCapabilities: unknown) => servers.serverFor(built, built[BUILT_BLUEPRINT], selection, '2026-07-28', { clientInfo, clientCapabilities });
    const bare = await serverFor(undefined, {});
    expect(await serverFor(null, JSON.parse('{}'))).toBe(bare);
    const named = await serverFor({ name: 'c', version: '1' }, {});
    expect(named).not.toBe(bare);
    expect(await serverFor({ name: 'c', version: '1' }, {})).toBe(named);
    expect(await serverFor(undefined, { sampling: {} })).not.toBe(bare);
    expect(await serverFor(undefined, undefined)).not.toBe(bare);
    // The key is what JSON writes: an object it writes as `{}` is `{}`, one with a `toJSON` is what that gives.
    expect(await serverFor(undefined, Object.create({ inherited: true }) as object)).toBe(bare);
    expect(await serverFor(undefined, Object.create({ toJSON: () => ({ sampling: {} }) }) as object)).toBe(await serverFor(undefined, { sampling: {} }));
    expect(servers.size.kept).toBe(4);
    await servers.close();
  });

  /** Starts a `tools/call` of `held` on `shared`; resolves with its answer. */
  function callHeld(shared: SharedServer): Promise<JSONRPCMessage> {
    return new Promise((resolve, reject) => {
      const sink: ExchangeSink = { related: () => undefined, answer: resolve, closed: () => reject(new Error('closed before answering')) };
      const outcome = shared.transport.exchange({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'held', arguments: {} } }, { request: new Request('http://127.0.0.1/mcp'), authInfo: undefined }, sink, shared.abort);
      expect(outcome.kind).toBe('dispatched');
    });
  }

  it(`keeps at most ${MAX_SHARED_SERVERS} servers over every blueprint, letting the least recently used go (closed when idle, after its exchange when busy)`, async () => {
    const servers = new SharedServers(host[HOST_STATS]);
    const busy = await serverOf(servers, 1);
    const idle = await serverOf(servers, 2);
    const answered = callHeld(busy);
    // Asked for again, so the most recently used: the next server let go is `idle`, then `busy`.
    expect(await serverOf(servers, 1)).toBe(busy);
    expect(await serverOf(servers, 2)).toBe(idle);
    expect(servers.size).toEqual({ kept: 2, retired: 0 });
    // Three times the bound in new selections: each a view of its own, none kept past the bound.
    let largest = 0;
    for (let n = 3; n < 3 + 3 * MAX_SHARED_SERVERS; n++) {
      await serverOf(servers, n);
      largest = Math.max(largest, servers.size.kept + servers.size.retired);
    }
    expect(largest).toBeLessThanOrEqual(MAX_SHARED_SERVERS + 1);
    expect(servers.size.kept).toBe(MAX_SHARED_SERVERS);
    // The idle one was closed when let go; the busy one is let go (a new one is minted for its selection) but still connected, its call still running.
    expect(idle.server.isConnected()).toBe(false);
    expect(servers.size.retired).toBe(1);
    expect(busy.server.isConnected()).toBe(true);
    release();
    expect(JSON.stringify(await answered)).toContain('released');
    // Once idle, it is closed at the next mint.
    await serverOf(servers, 3 + 3 * MAX_SHARED_SERVERS);
    expect(servers.size.retired).toBe(0);
    expect(busy.server.isConnected()).toBe(false);
    await servers.close();
    expect(servers.size).toEqual({ kept: 0, retired: 0 });
  }, 60_000);
});
