import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { buildHost, McpHost } from './host.js';
import { defineExtension, type McpExtension } from '../contract/extension.js';
import { defineTool } from '../contract/tool.js';
import { parseSelection } from '../selection/selection.js';
import { ErrorCodes, isReactorError, ReactorError } from '../kernel/errors.js';
import { captureLogger } from '../testing/captureLogger.js';
import { silentLogger } from '../kernel/logger.js';
import { connect } from '../testing/index.js';
import { HOST_STATS } from './internals.js';

const tool = (name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({ name, description: `The ${name} tool.`, handler: () => name, ...extra });

/** The spec §3 cast: core always, spaces default, benchmarks and library opt-in. */
function cast() {
  return [
    defineExtension({ manifest: { name: 'core', version: '1.0.0' }, toolsets: () => [{ name: 'core', always: true }], tools: () => [tool('ping')] }),
    defineExtension({ manifest: { name: 'spaces', version: '1.0.0' }, toolsets: () => [{ name: 'spaces', instructions: 'Spaces are folders.' }], tools: () => [tool('list_spaces')] }),
    defineExtension({ manifest: { name: 'benchmarks', version: '1.0.0' }, toolsets: () => [{ name: 'benchmarks', default: false, instructions: 'Benchmarks are graded.' }], tools: () => [tool('list_runs')] }),
    defineExtension({ manifest: { name: 'library', version: '1.0.0' }, toolsets: () => [{ name: 'library', default: false }], tools: () => [tool('find_book')] }),
  ];
}

describe('building a server for a selection', () => {
  it.each([
    ['', ['list_spaces', 'ping']],
    ['benchmarks', ['list_runs', 'list_spaces', 'ping']],
    ['only=benchmarks', ['list_runs', 'ping']],
    ['only=', ['ping']],
    ['without=spaces', ['ping']],
    ['without=core', ['list_spaces', 'ping']],
    ['benchmarks&library', ['find_book', 'list_runs', 'list_spaces', 'ping']],
  ])('?%s serves %j', async (query, tools) => {
    const host = await buildHost(cast(), { logger: silentLogger });
    const built = await host.build(parseSelection(query));
    expect([...built.toolNames].sort()).toEqual(tools);
  });

  it('shares one cached server between equal sets of active toolsets', async () => {
    const host = await buildHost(cast(), { logger: silentLogger });
    const a = await host.build(parseSelection('benchmarks&library'));
    expect(await host.build(parseSelection('library&benchmarks'))).toBe(a);
    expect(await host.build(parseSelection('toolsets=library,benchmarks'))).toBe(a);
  });

  it('returns a copy carrying this selection\'s unknown names, sharing the server', async () => {
    const host = await buildHost(cast(), { logger: silentLogger });
    const plain = await host.build(parseSelection('benchmarks'));
    const stale = await host.build(parseSelection('benchmarks&nosuch'));
    expect(stale).not.toBe(plain);
    expect(stale.server).toBe(plain.server);
    expect([...stale.unknown]).toEqual(['nosuch']);
    expect([...plain.unknown]).toEqual([]);
  });

  it('composes instructions from the active toolsets only', async () => {
    const host = await buildHost(cast(), { logger: silentLogger, instructions: 'Reactor demo.' });
    const plain = await host.build();
    expect(plain.instructions).toBe('Reactor demo.\n\n## spaces\n\nSpaces are folders.');
    const withBenchmarks = await host.build(parseSelection('benchmarks'));
    expect(withBenchmarks.instructions).toContain('## benchmarks\n\nBenchmarks are graded.');
  });

  it('mints fresh servers that each hold their own connection', async () => {
    const host = await buildHost(cast(), { logger: silentLogger });
    const built = await host.build();
    const a = await built.createServer();
    const b = await built.createServer();
    expect(a).not.toBe(b);
    expect(a).not.toBe(built.server);
    // Both connected at once, each to its own client; closing one leaves the other serving.
    const clients = await Promise.all([a, b].map(async (server) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'one-of-two', version: '1.0.0' });
      await client.connect(clientSide);
      return client;
    }));
    for (const client of clients) expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['ping', 'list_spaces']);
    await clients[0]!.close();
    expect(a.isConnected()).toBe(false);
    expect(b.isConnected()).toBe(true);
    expect((await clients[1]!.callTool({ name: 'ping' })).content).toEqual([{ type: 'text', text: 'ping' }]);
    await clients[1]!.close();
  });

  it('makes every server with the serverFactory, so no selection escapes it', async () => {
    class AuthedServer extends McpServer {}
    const factory = vi.fn((name: string, instructions: string) => new AuthedServer({ name, version: '1.0.0' }, { instructions }));
    const host = await buildHost(cast(), { logger: silentLogger, serverFactory: factory });
    for (const query of ['', 'only=', 'benchmarks', 'library']) {
      const built = await host.build(parseSelection(query));
      expect(built.server).toBeInstanceOf(AuthedServer);
      expect(await built.createServer()).toBeInstanceOf(AuthedServer);
    }
    expect(factory).toHaveBeenCalledTimes(8);
  });
});

describe('onChange', () => {
  it('reports a surface change on add, enable and disable (each toggle named first), and resource updates, until unsubscribed', async () => {
    const host = await buildHost(cast(), { logger: silentLogger });
    const changes: string[] = [];
    const stop = host.onChange((change) => changes.push(change.kind === 'surface' ? 'surface' : change.kind === 'toggled' ? `${change.enabled ? 'enabled' : 'disabled'} ${change.name}` : `updated ${change.uri}`));
    await host.disable('library');
    await host.enable('library');
    await host.add(defineExtension({ manifest: { name: 'late', version: '1.0.0' } }));
    await host.notifyResourceUpdated('test://r');
    stop();
    await host.disable('library');
    expect(changes).toEqual(['disabled library', 'surface', 'enabled library', 'surface', 'surface', 'updated test://r']);
  });

  it('keeps a throwing listener from stopping the others or the change itself', async () => {
    const logger = captureLogger();
    const host = await buildHost(cast(), { logger });
    const heard: string[] = [];
    host.onChange(() => {
      throw new Error('boom');
    });
    host.onChange((change) => heard.push(change.kind));
    await host.disable('library');
    expect(heard).toEqual(['toggled', 'surface']);
    expect(host.report().extensions.find((e) => e.name === 'library')?.state).toBe('disabled');
    expect(logger.entries.some((e) => e.level === 'error' && e.msg?.includes('boom') === true)).toBe(true);
  });
});

describe('activation', () => {
  function held(calls: string[]) {
    return defineExtension({
      manifest: { name: 'benchmarks', version: '1.0.0', activationEvents: ['onToolset:benchmarks'] },
      toolsets: () => [{ name: 'benchmarks', default: false }],
      tools: () => (calls.push('tools'), [tool('list_runs')]),
      onStart: () => void calls.push('onStart'),
    });
  }

  it('holds an extension until a URL names its toolset, then wakes it once', async () => {
    const calls: string[] = [];
    const host = await buildHost([...cast().slice(0, 2), held(calls)], { logger: silentLogger });
    expect(host.declaredToolsets().map((t) => t.name)).toContain('benchmarks');
    await host.build();
    expect(calls).toEqual([]);
    const before = host.revision;
    const built = await host.build(parseSelection('benchmarks'));
    expect(built.toolNames).toContain('list_runs');
    expect(calls).toEqual(['tools', 'onStart']);
    expect(host.revision).toBeGreaterThan(before);
    const after = host.revision;
    await host.build(parseSelection('benchmarks'));
    expect(host.revision).toBe(after);
  });

  it('wakes a held extension whose toolset is on by default (Fix)', async () => {
    const calls: string[] = [];
    const ext = defineExtension({
      manifest: { name: 'geo', version: '1.0.0', activationEvents: ['onToolset:geo'] },
      tools: () => (calls.push('tools'), [tool('where')]),
    });
    const host = await buildHost([ext], { logger: silentLogger });
    expect((await host.build()).toolNames).toEqual(['where']);
  });

  it('wakes single-flight: concurrent builds share one load and one onStart', async () => {
    let loads = 0;
    let starts = 0;
    const deferred = {
      kind: 'deferred' as const,
      manifest: { name: 'benchmarks', version: '1.0.0', activationEvents: ['onToolset:benchmarks'] },
      toolsets: [{ name: 'benchmarks', default: false }],
      package: '@reactor/ext-benchmarks@1.0.0',
      load: async () => {
        loads++;
        await Promise.resolve();
        return defineExtension({
          manifest: { name: 'benchmarks', version: '1.0.0', activationEvents: ['onToolset:benchmarks'] },
          toolsets: () => [{ name: 'benchmarks', default: false }],
          tools: () => [tool('list_runs')],
          onStart: () => void starts++,
        });
      },
    };
    const host = await buildHost([deferred], { logger: silentLogger });
    expect(loads).toBe(0);
    const builds = await Promise.all(Array.from({ length: 10 }, () => host.build(parseSelection('benchmarks'))));
    expect(loads).toBe(1);
    expect(starts).toBe(1);
    for (const b of builds) expect(b.toolNames).toEqual(['list_runs']);
  });

  it('refuses a discovered module whose declarations differ from its package.json', async () => {
    const logger = captureLogger();
    const deferred = {
      kind: 'deferred' as const,
      manifest: { name: 'benchmarks', version: '1.0.0', activationEvents: ['onToolset:benchmarks'] },
      toolsets: [{ name: 'benchmarks', default: false }],
      package: '@reactor/ext-benchmarks@1.0.0',
      load: () => Promise.resolve(defineExtension({ manifest: { name: 'benchmarks', version: '1.0.0' }, toolsets: () => [{ name: 'bench' }] })),
    };
    const host = await buildHost([deferred], { logger });
    const built = await host.build(parseSelection('benchmarks'));
    expect(built.toolNames).toEqual([]);
    const problem = host.report().problems.find((p) => p.extension === 'benchmarks');
    expect(problem?.code).toBe(ErrorCodes.DECLARATION_MISMATCH);
    expect(problem?.message).toContain('toolsets');
  });

  it('stands an extension down on a deactivation event and can wake it again', async () => {
    const stops: string[] = [];
    const ext = defineExtension({
      manifest: { name: 'sandboxes', version: '1.0.0', activationEvents: ['onToolset:sandboxes'], deactivationEvents: ['onToolset:panic'] },
      toolsets: () => [{ name: 'sandboxes', default: false }],
      tools: () => [tool('launch_sandbox')],
      onStop: () => void stops.push('sandboxes'),
    });
    const host = await buildHost([ext, defineExtension({ manifest: { name: 'panic', version: '1.0.0' }, toolsets: () => [{ name: 'panic', default: false }] })], { logger: silentLogger });
    expect((await host.build(parseSelection('sandboxes'))).toolNames).toEqual(['launch_sandbox']);
    await host.build(parseSelection('panic'));
    expect(stops).toEqual(['sandboxes']);
    expect(host.offeredTools().map((t) => t.name)).toEqual([]);
    expect((await host.build(parseSelection('sandboxes'))).toolNames).toEqual(['launch_sandbox']);
  });

  it('enable and disable drop the cache themselves (Fix)', async () => {
    const host = await buildHost(cast(), { logger: silentLogger });
    const before = await host.build();
    await host.disable('spaces');
    const without = await host.build();
    expect(without).not.toBe(before);
    expect(without.toolNames).toEqual(['ping']);
    expect(host.declaredToolsets().map((t) => t.name)).not.toContain('spaces');
    await host.enable('spaces');
    expect((await host.build()).toolNames).toContain('list_spaces');
    await expect(host.disable('nosuch')).rejects.toMatchObject({ code: ErrorCodes.EXTENSION_NOT_FOUND });
  });

  it('runs onStart dependencies first and onStop in reverse order', async () => {
    const order: string[] = [];
    const mk = (name: string, dependencies?: string[]) =>
      defineExtension({
        manifest: { name, version: '1.0.0', ...(dependencies ? { dependencies } : {}) },
        onStart: () => void order.push(`start ${name}`),
        onStop: () => void order.push(`stop ${name}`),
      });
    const host = await buildHost([mk('audit', ['store']), mk('store'), mk('api', ['audit'])], { logger: silentLogger });
    await host.stop();
    expect(order).toEqual(['start store', 'start audit', 'start api', 'stop api', 'stop audit', 'stop store']);
  });
});

describe('dependencies', () => {
  it('fails an extension whose dependency is missing, and its dependents, naming them', async () => {
    const host = await buildHost(
      [
        defineExtension({ manifest: { name: 'audit', version: '1.0.0', dependencies: ['store'] }, tools: () => [tool('audit_log')] }),
        defineExtension({ manifest: { name: 'report', version: '1.0.0', dependencies: ['audit'] }, tools: () => [tool('report')] }),
        defineExtension({ manifest: { name: 'ok', version: '1.0.0' }, tools: () => [tool('fine')] }),
      ],
      { logger: silentLogger },
    );
    const states = Object.fromEntries(host.report().extensions.map((e) => [e.name, e.state]));
    expect(states).toEqual({ audit: 'failed', report: 'failed', ok: 'active' });
    const messages = host.report().problems.map((p) => p.message);
    expect(messages.some((m) => m.includes('"store", which is not registered'))).toBe(true);
    expect((await host.build()).toolNames).toEqual(['fine']);
  });

  it('names the chain of a dependency cycle', async () => {
    const host = await buildHost(
      [
        defineExtension({ manifest: { name: 'a', version: '1.0.0', dependencies: ['b'] } }),
        defineExtension({ manifest: { name: 'b', version: '1.0.0', dependencies: ['a'] } }),
      ],
      { logger: silentLogger },
    );
    const cycle = host.report().problems.find((p) => p.code === ErrorCodes.DEPENDENCY_CYCLE);
    expect(cycle?.message).toMatch(/a → b → a|b → a → b/);
  });
});

describe('tool extensions', () => {
  const calls: string[] = [];
  const target = defineExtension({
    manifest: { name: 'spaces', version: '1.0.0' },
    tools: () => [
      defineTool({
        name: 'read_file',
        description: 'Read a file.',
        inputSchema: z.object({ space: z.string(), path: z.string() }),
        meta: { owner: 'spaces', keep: true },
        handler: (args) => (calls.push('original'), `${args.space}/${args.path}`),
      }),
    ],
  });
  const extender = (name: string, order: number | undefined, extra: object = {}) =>
    defineExtension({
      manifest: { name, version: '1.0.0' },
      toolExtensions: () => [
        ['read_file', { ...(order === undefined ? {} : { order }), description: `by ${name}`, meta: { owner: name }, wrap: (original) => (args, ctx) => (calls.push(name), original(args, ctx)), ...extra }],
      ],
    });

  it('applies by order, then registration; the last applied is outermost and has the last word', async () => {
    calls.length = 0;
    const host = await buildHost([target, extender('late', 5), extender('audit', undefined), extender('guard', undefined)], { logger: silentLogger });
    const conn = await connect(host);
    const listed = (await conn.client.listTools()).tools[0]!;
    expect(listed.description).toBe('by late');
    expect(listed._meta).toEqual({ owner: 'late', keep: true });
    await conn.callTool('read_file', { space: 's', path: 'p' });
    expect(calls).toEqual(['late', 'guard', 'audit', 'original']);
    expect((await host.describe()).provenance['read_file']).toEqual({ offeredBy: 'spaces', extendedBy: ['audit', 'guard', 'late'] });
    await conn.close();
  });

  it('gives the same result whatever order the extending packages were registered in', async () => {
    const a = await buildHost([target, extender('x', 1), extender('y', 1)], { logger: silentLogger });
    const b = await buildHost([extender('x', 1), target, extender('y', 1)], { logger: silentLogger });
    expect(a.offeredTools()[0]?.description).toBe(b.offeredTools()[0]?.description);
  });

  it('a narrowing wrapper fills an argument in and removes it from the schema', async () => {
    const narrow = defineExtension({
      manifest: { name: 'tenant-space', version: '1.0.0' },
      toolExtensions: () => [['read_file', { inputSchema: z.object({ path: z.string() }), wrap: (original) => (args, ctx) => original({ ...args, space: 'mine' }, ctx) }]],
    });
    const host = await buildHost([target, narrow], { logger: silentLogger });
    const conn = await connect(host);
    const listed = (await conn.client.listTools()).tools[0]!;
    expect(Object.keys(listed.inputSchema.properties ?? {})).toEqual(['path']);
    expect((await conn.callTool('read_file', { path: 'notes.md' })).content).toEqual([{ type: 'text', text: 'mine/notes.md' }]);
    await conn.close();
  });

  it('fails closed: a throwing or non-function wrap leaves the tool out, never half-extended', async () => {
    const logger = captureLogger();
    const bad = defineExtension({
      manifest: { name: 'broken', version: '1.0.0' },
      toolExtensions: () => [['read_file', { wrap: () => 'not a function' as never }]],
    });
    const other = defineExtension({ manifest: { name: 'other', version: '1.0.0' }, tools: () => [tool('other_tool')] });
    const host = await buildHost([target, bad, other], { logger });
    expect((await host.build()).toolNames).toEqual(['other_tool']);
    const logged = logger.entries.find((e) => e.fields.code === ErrorCodes.TOOL_EXTENSION_FAILED);
    expect(logged?.msg).toContain('"read_file"');
    expect(logged?.msg).toContain('"broken"');
  });

  it('stores an extension of a tool nobody offers, and describe() says so', async () => {
    const host = await buildHost([extender('audit', 0)], { logger: silentLogger });
    expect((await host.describe()).unappliedExtensions).toEqual([{ tool: 'read_file', extension: 'audit' }]);
  });

  it('converts the result after the outermost wrapper', async () => {
    const seen: unknown[] = [];
    const spy = defineExtension({
      manifest: { name: 'spy', version: '1.0.0' },
      toolExtensions: () => [['read_file', { wrap: (original) => async (args, ctx) => { const raw = await original(args, ctx); seen.push(raw); return { wrapped: raw }; } }]],
    });
    const host = await buildHost([target, spy], { logger: silentLogger });
    const conn = await connect(host);
    const result = await conn.callTool('read_file', { space: 'a', path: 'b' });
    expect(seen).toEqual(['a/b']);
    expect(result.content).toEqual([{ type: 'text', text: '{"wrapped":"a/b"}' }]);
    await conn.close();
  });
});

describe('name collisions', () => {
  it('serves the first registered offering, leaves out the others, and names every extension once per build', async () => {
    const logger = captureLogger();
    const host = await buildHost(
      [
        defineExtension({ manifest: { name: 'first', version: '1.0.0' }, tools: () => [tool('search', { handler: () => 'first' })] }),
        defineExtension({ manifest: { name: 'second', version: '1.0.0' }, tools: () => [tool('search', { handler: () => 'second' })] }),
      ],
      { logger },
    );
    const conn = await connect(host);
    expect(await conn.toolNames()).toEqual(['search']);
    expect((await conn.callTool('search')).content).toEqual([{ type: 'text', text: 'first' }]);
    await host.build();
    await host.build();
    const warnings = logger.entries.filter((e) => e.fields.code === ErrorCodes.TOOL_CONFLICT);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain('"first", "second"');
    expect((await host.describe()).conflicts).toEqual([{ tool: 'search', served: 'first', ignored: ['second'] }]);
    await conn.close();
  });

  it('only counts offerings whose toolsets are active in the build', async () => {
    const host = await buildHost(
      [
        defineExtension({ manifest: { name: 'first', version: '1.0.0' }, toolsets: () => [{ name: 'first', default: false }], tools: () => [tool('search', { handler: () => 'first' })] }),
        defineExtension({ manifest: { name: 'second', version: '1.0.0' }, tools: () => [tool('search', { handler: () => 'second' })] }),
      ],
      { logger: silentLogger },
    );
    const conn = await connect(host);
    expect((await conn.callTool('search')).content).toEqual([{ type: 'text', text: 'second' }]);
    expect((await host.describe()).conflicts).toEqual([]);
    await conn.close();
  });
});

describe('onServer', () => {
  it('runs for participating extensions only, before connect, and may remove a tool on that server only', async () => {
    const seen: string[] = [];
    const remover = defineExtension({
      manifest: { name: 'remover', version: '1.0.0' },
      toolsets: () => [{ name: 'remover', default: false }],
      onServer: (_server, context) => {
        seen.push([...context.toolsets].sort().join(','));
        context.tool('ping')?.remove();
      },
    });
    const host = await buildHost([...cast(), remover], { logger: silentLogger });
    await host.build();
    expect(seen).toEqual([]);
    const conn = await connect(host, { selection: 'remover' });
    expect(await conn.toolNames()).not.toContain('ping');
    await expect(conn.callTool('ping')).rejects.toThrow(/not found/);
    expect(seen.length).toBeGreaterThan(0);
    const plain = await connect(host);
    expect(await plain.toolNames()).toContain('ping');
    await conn.close();
    await plain.close();
  });

  it('a throwing or hanging hook costs only its own action, and is reported', async () => {
    const logger = captureLogger();
    const host = await buildHost(
      [
        ...cast(),
        defineExtension({ manifest: { name: 'thrower', version: '1.0.0' }, onServer: () => { throw new Error('boom'); } }),
        defineExtension({ manifest: { name: 'hanger', version: '1.0.0' }, onServer: () => new Promise<void>(() => {}) }),
        defineExtension({ manifest: { name: 'adder', version: '1.0.0' }, onServer: (server) => void server.registerTool('extra', { description: 'Added by a hook.' }, () => ({ content: [{ type: 'text', text: 'extra' }] })) }),
      ],
      { logger, onServerTimeoutMs: 50 },
    );
    const conn = await connect(host);
    expect(await conn.toolNames()).toEqual(['ping', 'list_spaces', 'extra']);
    expect((await conn.callTool('extra')).content).toEqual([{ type: 'text', text: 'extra' }]);
    const failures = host.report().problems.filter((p) => p.code === ErrorCodes.ON_SERVER_FAILED).map((p) => p.extension);
    expect(failures.sort()).toEqual(['hanger', 'thrower']);
    await conn.close();
  });
});

describe('onServer runs once per server someone asked for', () => {
  function counted(runs: string[], onServer?: McpExtension['onServer']) {
    return defineExtension({
      manifest: { name: 'counted', version: '1.0.0' },
      tools: () => [tool('probe')],
      onServer: async (server, context) => {
        runs.push('hook');
        await onServer?.(server, context);
      },
    });
  }

  it('build() runs no hook; each createServer() and the first read of built.server run it once', async () => {
    const runs: string[] = [];
    const host = await buildHost([counted(runs)], { logger: silentLogger });
    const built = await host.build();
    expect(await host.build()).toBe(built);
    expect(runs).toHaveLength(0);
    await built.createServer();
    expect(runs).toHaveLength(1);
    const first = built.server;
    expect(built.server).toBe(first);
    expect((await host.build(parseSelection('nobody-declared-this'))).server).toBe(first); // the copy shares it
    expect(runs).toHaveLength(2);
    expect(host[HOST_STATS].mints).toBe(2);
  });

  it('a connection runs the hooks once: no extra run for a server nobody connects to', async () => {
    const runs: string[] = [];
    const host = await buildHost([counted(runs)], { logger: silentLogger });
    const first = await connect(host);
    expect(runs).toHaveLength(1);
    const second = await connect(host);
    expect(runs).toHaveLength(2);
    await first.close();
    await second.close();
  });

  it('built.server, read at once, still gets its async hooks done before it connects', async () => {
    const runs: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const host = await buildHost(
      [counted(runs, async (_server, context) => {
        await gate;
        context.tool('probe')?.remove();
        runs.push('hook done');
      })],
      { logger: silentLogger },
    );
    const server = (await host.build()).server;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const start = serverSide.start.bind(serverSide);
    serverSide.start = () => (runs.push('transport started'), start());
    const connecting = server.connect(serverSide);
    release();
    await connecting;
    expect(runs).toEqual(['hook', 'hook done', 'transport started']);
    const client = new Client({ name: 'probe', version: '1.0.0' });
    await client.connect(clientSide);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([]);
    await client.close();
    await server.close();
  });
});

describe("tool extensions with when: 'active'", () => {
  function files() {
    return defineExtension({ manifest: { name: 'spaces', version: '1.0.0' }, toolsets: () => [{ name: 'spaces' }], tools: () => [tool('read_file')] });
  }
  function annotator(when: 'active' | 'always' | undefined) {
    return defineExtension({
      manifest: { name: 'benchmarks', version: '1.0.0', activationEvents: ['onToolset:benchmarks'] },
      toolsets: () => [{ name: 'benchmarks', default: false }],
      tools: () => [tool('get_run')],
      toolExtensions: () => [['read_file', { description: 'Reads a file; use get_run for runs.', wrap: (original) => async (args, ctx) => `annotated ${String(await original(args, ctx))}`, ...(when ? { when } : {}) }]],
    });
  }

  it('applies only where one of the extending extension\'s toolsets is active, even after it woke elsewhere', async () => {
    const host = await buildHost([files(), annotator('active')], { logger: silentLogger });
    await host.describe(parseSelection('benchmarks')); // GET /toolsets?benchmarks wakes it
    const plain = await connect(host);
    expect((await plain.client.listTools()).tools.find((t) => t.name === 'read_file')?.description).toBe('The read_file tool.');
    expect((await plain.callTool('read_file')).content).toEqual([{ type: 'text', text: 'read_file' }]);
    expect((await host.describe()).provenance.read_file).toEqual({ offeredBy: 'spaces', extendedBy: [] });
    const withBenchmarks = await connect(host, { selection: 'benchmarks' });
    expect((await withBenchmarks.client.listTools()).tools.find((t) => t.name === 'read_file')?.description).toBe('Reads a file; use get_run for runs.');
    expect((await withBenchmarks.callTool('read_file')).content).toEqual([{ type: 'text', text: 'annotated read_file' }]);
    expect((await host.describe(parseSelection('benchmarks'))).provenance.read_file).toEqual({ offeredBy: 'spaces', extendedBy: ['benchmarks'] });
    expect(host.offeredTools(['spaces']).find((t) => t.name === 'read_file')?.description).toBe('The read_file tool.');
    expect(host.offeredTools(['spaces', 'benchmarks']).find((t) => t.name === 'read_file')?.description).toBe('Reads a file; use get_run for runs.');
    await plain.close();
    await withBenchmarks.close();
  });

  it("defaults to 'always': applied wherever the tool is served once the extension is awake", async () => {
    for (const when of [undefined, 'always'] as const) {
      const host = await buildHost([files(), annotator(when)], { logger: silentLogger });
      await host.describe(parseSelection('benchmarks'));
      expect((await host.build()).tools.find((t) => t.name === 'read_file')?.description).toBe('Reads a file; use get_run for runs.');
    }
  });

  it('refuses an invalid when, naming the extension and the tool', async () => {
    const odd = defineExtension({ manifest: { name: 'odd', version: '1.0.0' }, toolExtensions: () => [['read_file', { when: 'sometimes' as never }]] });
    const host = await buildHost([files(), odd], { logger: silentLogger });
    expect(host.report().problems.find((p) => p.extension === 'odd')?.message).toContain('extension "odd"\'s extension of tool "read_file": has an invalid "when"');
  });
});

describe('a handler that throws', () => {
  it('a model mistake (a ReactorError REACTOR_TOOL_FAILED with a hint) is answered and logged at warn, not kept as a problem', async () => {
    const logger = captureLogger();
    const files = defineExtension({
      manifest: { name: 'files', version: '1.0.0' },
      tools: () => [tool('read_file', { handler: () => { throw new ReactorError(ErrorCodes.TOOL_FAILED, { subject: 'path "nope.txt"', problem: 'does not exist', hint: 'list_files shows what does' }); } })],
    });
    const host = await buildHost([files], { logger });
    const conn = await connect(host);
    const result = await conn.callTool('read_file');
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'path "nope.txt": does not exist; hint: list_files shows what does' }]);
    const entries = logger.entries.filter((e) => e.fields.tool === 'read_file');
    expect(entries.map((e) => e.level)).toEqual(['warn']);
    expect(host.report().problems).toEqual([]);
    await conn.close();
  });

  it('anything else it throws is the extension\'s fault: logged at error and kept in report()', async () => {
    const logger = captureLogger();
    const buggy = defineExtension({ manifest: { name: 'buggy', version: '1.0.0' }, tools: () => [tool('divide', { handler: () => { throw new TypeError('x is undefined'); } })] });
    const host = await buildHost([buggy], { logger });
    const conn = await connect(host);
    expect((await conn.callTool('divide')).content).toEqual([{ type: 'text', text: 'x is undefined' }]);
    expect(logger.entries.filter((e) => e.fields.tool === 'divide').map((e) => [e.level, e.fields.code])).toEqual([['error', ErrorCodes.TOOL_FAILED]]);
    expect(host.report().problems).toEqual([expect.objectContaining({ code: ErrorCodes.TOOL_FAILED, extension: 'buggy', subject: 'divide', phase: 'call' })]);
    await conn.close();
  });
});

describe('host[HOST_STATS]', () => {
  it('counts a tool an onServer hook registers, once per server that registers it', async () => {
    const adder = defineExtension({
      manifest: { name: 'adder', version: '1.0.0' },
      tools: () => [tool('base')],
      onServer: (server) => void server.registerTool('extra', { description: 'Added by a hook.' }, () => ({ content: [{ type: 'text', text: 'extra' }] })),
    });
    const host = await buildHost([adder], { logger: silentLogger });
    const built = await host.build();
    expect(host[HOST_STATS].toolRegistrations).toBe(0);
    await built.createServer();
    await built.createServer();
    expect(host[HOST_STATS].toolRegistrations).toBe(2);
    expect(host[HOST_STATS].mints).toBe(2);
  });

  it('each host counts its own work only', async () => {
    const a = await buildHost(cast(), { logger: silentLogger });
    const b = await buildHost(cast(), { logger: silentLogger });
    await a.build();
    await a.build(parseSelection('benchmarks'));
    expect(a[HOST_STATS].blueprints).toBe(2);
    expect(b[HOST_STATS].blueprints).toBe(0);
    expect(b[HOST_STATS].resolutions).toBe(0);
  });
});

describe('isolation and strict', () => {
  const broken: McpExtension[] = [
    defineExtension({ manifest: { name: 'bad-tools', version: '1.0.0' }, tools: () => { throw new Error('tools exploded'); } }),
    defineExtension({ manifest: { name: 'Bad Name', version: '1.0.0' } }),
    defineExtension({ manifest: { name: 'bad-start', version: '1.0.0' }, tools: () => [tool('never')], onStart: () => { throw new Error('no database'); } }),
    defineExtension({ manifest: { name: 'future', version: '1.0.0', host: '>=99' } }),
  ];

  it('serves around misbehaving extensions and reports each with its code', async () => {
    const host = await buildHost([...cast(), ...broken], { logger: silentLogger });
    expect([...(await host.build()).toolNames].sort()).toEqual(['list_spaces', 'ping']);
    const codes = Object.fromEntries(host.report().problems.map((p) => [p.extension ?? '?', p.code]));
    expect(codes).toMatchObject({
      'bad-tools': ErrorCodes.CONTRIBUTION_FAILED,
      'Bad Name': ErrorCodes.MANIFEST_INVALID,
      'bad-start': ErrorCodes.START_FAILED,
      future: ErrorCodes.EXTENSION_INCOMPATIBLE,
    });
    expect(host.report().ok).toBe(false);
  });

  it('strict: throws one error listing every problem', async () => {
    const error = await buildHost([...cast(), ...broken], { logger: silentLogger, strict: true }).catch((e: unknown) => e);
    expect(isReactorError(error)).toBe(true);
    expect((error as { code: string }).code).toBe(ErrorCodes.STARTUP_FAILED);
    for (const name of ['bad-tools', 'Bad Name', 'bad-start', 'future']) expect((error as Error).message).toContain(`"${name}"`);
  });

  it('a handler that throws costs that call: isError with the message, never a stack, logged with tool and extension', async () => {
    const logger = captureLogger();
    const host = await buildHost([defineExtension({ manifest: { name: 'flaky', version: '1.0.0' }, tools: () => [tool('explode', { handler: () => { throw new Error('disk on fire'); } })] })], { logger });
    const conn = await connect(host);
    const result = await conn.callTool('explode');
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'disk on fire' }] });
    expect(logger.entries.find((e) => e.fields.code === ErrorCodes.TOOL_FAILED)?.fields).toMatchObject({ extension: 'flaky', tool: 'explode' });
    await conn.close();
  });

  it('a handler past its time limit answers isError and sees its signal aborted', async () => {
    let aborted: Promise<unknown> | undefined;
    const host = await buildHost(
      [defineExtension({ manifest: { name: 'slow', version: '1.0.0' }, tools: () => [tool('hang', { timeoutMs: 30, handler: (_args, ctx) => { aborted = new Promise((resolve) => ctx.signal.addEventListener('abort', resolve)); return new Promise(() => {}); } }), tool('quick')] })],
      { logger: silentLogger },
    );
    const conn = await connect(host);
    const result = await conn.callTool('hang');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('timed out after 30 ms');
    await aborted;
    expect((await conn.callTool('quick')).content).toEqual([{ type: 'text', text: 'quick' }]);
    await conn.close();
  });
});

describe('tenants', () => {
  it('gives each tenant its own extensions and cache entries', async () => {
    const host = await buildHost(
      [
        ...cast().slice(0, 2),
        defineExtension({ manifest: { name: 'acme-only', version: '1.0.0', tenants: ['acme'] }, tools: () => [tool('acme_tool')] }),
      ],
      { logger: silentLogger },
    );
    const acme = await host.build(undefined, { tenant: 'acme' });
    const globex = await host.build(undefined, { tenant: 'globex' });
    const none = await host.build();
    expect(acme.toolNames).toContain('acme_tool');
    expect(globex.toolNames).not.toContain('acme_tool');
    expect(none.toolNames).not.toContain('acme_tool');
    expect(globex).not.toBe(none);
    expect(globex.server).not.toBe(none.server);
  });

  it('tells a tool handler which tenant its call serves (ctx.tenant; absent without one)', async () => {
    const whose = defineTool({ name: 'whose', description: 'Which tenant calls.', handler: (_args, ctx) => ctx.tenant ?? '(none)' });
    const host = await buildHost([defineExtension({ manifest: { name: 'ledger', version: '1.0.0' }, tools: () => [whose] })], { logger: silentLogger });
    for (const [tenant, expected] of [['acme', 'acme'], ['globex', 'globex'], [undefined, '(none)']] as const) {
      const conn = await connect(host, tenant === undefined ? {} : { tenant });
      expect((await conn.callTool('whose')).content).toEqual([{ type: 'text', text: expected }]);
      await conn.close();
    }
  });
});

describe('describe()', () => {
  it('answers what a URL would get, sorted, without making a server', async () => {
    const host = new McpHost({ logger: silentLogger, toolsetsTool: true });
    await host.add(...cast());
    await host.start();
    const d = await host.describe(parseSelection('benchmarks&nosuch'));
    expect(d.toolsets.map((t) => [t.name, t.active])).toEqual([['benchmarks', true], ['core', true], ['library', false], ['spaces', true]]);
    expect(d.toolsets.find((t) => t.name === 'spaces')).toEqual({ name: 'spaces', title: 'spaces', description: '', default: true, always: false, active: true });
    expect(d.active).toEqual(['benchmarks', 'core', 'spaces']);
    expect(d.tools).toEqual(['list_runs', 'list_server_toolsets', 'list_spaces', 'ping']);
    expect(d.unknown).toEqual(['nosuch']);
    expect(d.provenance['ping']).toEqual({ offeredBy: 'core', extendedBy: [] });
    expect(host[HOST_STATS].mints).toBe(0); // no SDK server was made
  });

  it('list_server_toolsets suggests the declared toolset meant by a mistyped name in the URL', async () => {
    const host = await buildHost(cast(), { logger: silentLogger, toolsetsTool: true });
    const conn = await connect(host, { selection: 'benchmark&nosuchthing' });
    const answer = (await conn.callTool('list_server_toolsets')).structuredContent as { unknown: string[]; howToSelect: string };
    expect(answer.unknown).toEqual(['benchmark', 'nosuchthing']);
    expect(answer.howToSelect).toContain('"benchmark" is not a toolset here; did you mean "benchmarks"?');
    expect(answer.howToSelect).not.toContain('"nosuchthing" is not');
    await conn.close();
  });

  it('list_server_toolsets: an extension\'s own tool of that name wins, with a warning', async () => {
    const logger = captureLogger();
    const host = await buildHost([defineExtension({ manifest: { name: 'mine', version: '1.0.0' }, tools: () => [tool('list_server_toolsets', { handler: () => 'mine' })] })], { logger, toolsetsTool: true });
    const conn = await connect(host);
    expect((await conn.callTool('list_server_toolsets')).content).toEqual([{ type: 'text', text: 'mine' }]);
    expect(logger.entries.some((e) => e.level === 'warn' && e.msg?.includes('list_server_toolsets'))).toBe(true);
    await conn.close();
  });
});

describe('resources, prompts and completions', () => {
  const files = defineExtension({
    manifest: { name: 'files', version: '1.0.0' },
    toolsets: () => [{ name: 'files' }, { name: 'hidden', default: false }],
    resources: () => [
      {
        name: 'space-file',
        template: 'files://{space}/{+path}',
        read: (uri, variables) => ({ contents: [{ uri: uri.href, text: `${String(variables.space)}:${String(variables.path)}` }] }),
        complete: { space: (value) => ['alpha', 'beta'].filter((s) => s.startsWith(value)) },
      },
      { name: 'secret', uri: 'secret://vault/key', toolset: 'hidden', read: (uri) => ({ contents: [{ uri: uri.href, text: 'secret' }] }) },
    ],
    prompts: () => [
      {
        name: 'summarize',
        argsSchema: z.object({ space: z.string(), path: z.string() }),
        get: (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${args.space}/${args.path}` } }] }),
        complete: { path: (value, _ctx, context) => [`${context.arguments.space ?? '?'}/${value}notes.md`] },
      },
    ],
  });

  it('serves a template\'s variables, a prompt\'s arguments, and completions that see the other arguments', async () => {
    const host = await buildHost([files], { logger: silentLogger, strict: true });
    const conn = await connect(host);
    const read = await conn.client.readResource({ uri: 'files://alpha/docs/a.md' });
    expect(read.contents).toEqual([{ uri: 'files://alpha/docs/a.md', text: 'alpha:docs/a.md' }]);
    const prompt = await conn.client.getPrompt({ name: 'summarize', arguments: { space: 'alpha', path: 'x.md' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Summarize alpha/x.md' });
    const spaces = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'files://{space}/{+path}' }, argument: { name: 'space', value: 'a' } });
    expect(spaces.completion.values).toEqual(['alpha']);
    const paths = await conn.client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'path', value: 'n' }, context: { arguments: { space: 'beta' } } });
    expect(paths.completion.values).toEqual(['beta/nnotes.md']);
    await conn.close();
  });

  it('serves a resource only where its toolset is active', async () => {
    const host = await buildHost([files], { logger: silentLogger, strict: true });
    const plain = await connect(host);
    await expect(plain.client.readResource({ uri: 'secret://vault/key' })).rejects.toThrow();
    const hidden = await connect(host, { selection: 'hidden' });
    expect((await hidden.client.readResource({ uri: 'secret://vault/key' })).contents).toHaveLength(1);
    await plain.close();
    await hidden.close();
  });
});

describe('fixes from the spec review', () => {
  it('a concurrent build waits for a woken extension\'s onStart before serving its tools', async () => {
    let release!: () => void;
    const started = new Promise<void>((resolve) => (release = resolve));
    const ext = defineExtension({
      manifest: { name: 'slow', version: '1.0.0', activationEvents: ['onToolset:slow'] },
      toolsets: () => [{ name: 'slow', default: false }],
      tools: () => [tool('slow_tool')],
      onStart: () => started,
    });
    const host = await buildHost([ext], { logger: silentLogger });
    const first = host.build(parseSelection('slow'));
    await Promise.resolve();
    let secondDone = false;
    const second = host.build(parseSelection('slow')).then((b) => ((secondDone = true), b));
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(secondDone).toBe(false);
    expect(host.offeredTools().map((t) => t.name)).toEqual([]); // not visible until onStart succeeded
    release();
    expect((await first).toolNames).toEqual(['slow_tool']);
    expect((await second).toolNames).toEqual(['slow_tool']);
  });

  it('wakes a held dependency for an extension that depends on it, and starts it first', async () => {
    const order: string[] = [];
    const dep = defineExtension({ manifest: { name: 'dep', version: '1.0.0', activationEvents: ['onToolset:dep'] }, toolsets: () => [{ name: 'dep', default: false }], onStart: () => void order.push('dep') });
    const user = defineExtension({ manifest: { name: 'user', version: '1.0.0', dependencies: ['dep'] }, onStart: () => void order.push('user') });
    const host = await buildHost([user, dep], { logger: silentLogger });
    expect(order).toEqual(['dep', 'user']);
    expect(Object.fromEntries(host.report().extensions.map((e) => [e.name, e.state]))).toEqual({ dep: 'active', user: 'active' });
  });

  it('reports a resource offered twice at one URI (the first registered is served), and a prompt name offered twice', async () => {
    const logger = captureLogger();
    const mk = (name: string) =>
      defineExtension({
        manifest: { name, version: '1.0.0' },
        resources: () => [{ name: 'readme', uri: 'docs://readme', read: (uri) => ({ contents: [{ uri: uri.href, text: name }] }) }],
        prompts: () => [{ name: 'hello', get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: name } }] }) }],
      });
    const host = await buildHost([mk('first'), mk('second')], { logger });
    const conn = await connect(host);
    expect((await conn.client.readResource({ uri: 'docs://readme' })).contents).toEqual([{ uri: 'docs://readme', text: 'first' }]);
    expect((await conn.client.getPrompt({ name: 'hello' })).messages[0]?.content).toEqual({ type: 'text', text: 'first' });
    const warnings = logger.entries.filter((e) => e.level === 'warn' && e.fields.extension === 'second');
    expect(warnings.map((w) => w.fields.code).sort()).toEqual([ErrorCodes.PROMPT_INVALID, ErrorCodes.RESOURCE_INVALID]);
    await conn.close();
  });

  it('lists an extension once in extendedBy even when it extends the tool twice', async () => {
    const target = defineExtension({ manifest: { name: 'target', version: '1.0.0' }, tools: () => [tool('t')] });
    const twice = defineExtension({ manifest: { name: 'twice', version: '1.0.0' }, toolExtensions: () => [['t', { order: 1 }], ['t', { order: 2 }]] });
    const host = await buildHost([target, twice], { logger: silentLogger });
    expect((await host.describe()).provenance['t']).toEqual({ offeredBy: 'target', extendedBy: ['twice'] });
  });

  it('calls onServer of an extension that contributed a tool in an active toolset even when its tool lost a collision', async () => {
    const calls: string[] = [];
    const winner = defineExtension({ manifest: { name: 'winner', version: '1.0.0' }, toolsets: () => [{ name: 'shared' }], tools: () => [tool('same')] });
    const loser = defineExtension({ manifest: { name: 'loser', version: '1.0.0' }, toolsets: () => [{ name: 'mine', default: false }], tools: () => [tool('same', { toolset: 'shared' })], onServer: () => void calls.push('loser') });
    const host = await buildHost([winner, loser], { logger: silentLogger });
    await (await host.build()).createServer();
    expect(calls).toEqual(['loser']);
  });

  it('strict: a tool extension that fails makes buildHost throw', async () => {
    const target = defineExtension({ manifest: { name: 'target', version: '1.0.0' }, tools: () => [tool('t')] });
    const broken = defineExtension({ manifest: { name: 'broken', version: '1.0.0' }, toolExtensions: () => [['t', { wrap: () => 42 as never }]] });
    await expect(buildHost([target, broken], { logger: silentLogger, strict: true })).rejects.toMatchObject({ code: ErrorCodes.STARTUP_FAILED, message: expect.stringContaining(ErrorCodes.TOOL_EXTENSION_FAILED) });
  });

  it('list_server_toolsets answers describe() whole (provenance included) plus howToSelect', async () => {
    const host = await buildHost(cast(), { logger: silentLogger, toolsetsTool: true });
    const conn = await connect(host);
    const listed = (await conn.callTool('list_server_toolsets')).structuredContent as Record<string, unknown>;
    expect(Object.keys(listed).sort()).toEqual([...Object.keys(await host.describe()), 'howToSelect'].sort());
    expect((listed['provenance'] as Record<string, unknown>)['ping']).toEqual({ offeredBy: 'core', extendedBy: [] });
    await conn.close();
  });

  it('refuses a discovered module that turns a declared opt-in toolset into an always-on one, or drops its activation events', async () => {
    const deferred = (module: McpExtension) => ({
      kind: 'deferred' as const,
      manifest: { name: 'drafts', version: '1.0.0', activationEvents: ['onToolset:drafts'] },
      toolsets: [{ name: 'drafts', default: false }],
      package: '@acme/drafts@1.0.0',
      load: () => Promise.resolve(module),
    });
    for (const module of [
      defineExtension({ manifest: { name: 'drafts', version: '1.0.0', activationEvents: ['onToolset:drafts'] }, toolsets: () => [{ name: 'drafts', always: true }] }),
      defineExtension({ manifest: { name: 'drafts', version: '1.0.0' }, toolsets: () => [{ name: 'drafts', default: false }] }),
    ]) {
      const host = await buildHost([deferred(module)], { logger: silentLogger });
      await host.build(parseSelection('drafts'));
      expect(host.report().problems.map((p) => p.code)).toContain(ErrorCodes.DECLARATION_MISMATCH);
      expect(host.declaredToolsets()).toEqual([]);
    }
  });
});

describe('onServer hooks adding resources and prompts', () => {
  it('a hook may register a prompt and a resource on a server that already serves some, on that server only', async () => {
    const base = defineExtension({
      manifest: { name: 'base', version: '1.0.0' },
      resources: () => [{ name: 'readme', uri: 'docs://readme', read: (uri) => ({ contents: [{ uri: uri.href, text: 'readme' }] }) }],
      prompts: () => [{ name: 'hello', get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }) }],
    });
    const hooky = defineExtension({
      manifest: { name: 'hooky', version: '1.0.0' },
      toolsets: () => [{ name: 'hooky', default: false }],
      onServer: (server) => {
        server.registerPrompt('extra', { description: 'Added by a hook.' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'extra' } }] }));
        server.registerResource('changelog', 'docs://changelog', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri: uri.href, text: 'changelog' }] }));
      },
    });
    const host = await buildHost([base, hooky], { logger: silentLogger, strict: true });
    const hooked = await connect(host, { selection: 'hooky' });
    expect((await hooked.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello', 'extra']);
    expect((await hooked.client.getPrompt({ name: 'extra' })).messages[0]?.content).toEqual({ type: 'text', text: 'extra' });
    expect((await hooked.client.listResources()).resources.map((r) => r.uri)).toEqual(['docs://readme', 'docs://changelog']);
    expect((await hooked.client.readResource({ uri: 'docs://changelog' })).contents).toEqual([{ uri: 'docs://changelog', text: 'changelog' }]);
    expect(host.report().problems).toEqual([]);
    const plain = await connect(host);
    expect((await plain.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello']);
    await hooked.close();
    await plain.close();
  });

  it('a resource template a hook registers completes like a contributed one', async () => {
    const base = defineExtension({
      manifest: { name: 'base', version: '1.0.0' },
      resources: () => [{ name: 'readme', uri: 'docs://readme', read: (uri) => ({ contents: [{ uri: uri.href, text: 'readme' }] }) }],
    });
    const hooky = defineExtension({
      manifest: { name: 'hooky', version: '1.0.0' },
      onServer: (server) => {
        const template = new ResourceTemplate('docs://pages/{page}', { list: undefined, complete: { page: (value) => ['intro', 'install', 'usage'].filter((p) => p.startsWith(value)) } });
        server.registerResource('pages', template, {}, (uri) => ({ contents: [{ uri: uri.href, text: 'page' }] }));
      },
    });
    const conn = await connect(await buildHost([base, hooky], { logger: silentLogger, strict: true }));
    expect(conn.client.getServerCapabilities()).toHaveProperty('completions');
    const answer = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'docs://pages/{page}' }, argument: { name: 'page', value: 'in' } });
    expect(answer.completion.values).toEqual(['intro', 'install']);
    await conn.close();
  });

  it('the handles a hook gets back disable, enable and remove what it registered; update throws', async () => {
    const base = defineExtension({
      manifest: { name: 'base', version: '1.0.0' },
      resources: () => [{ name: 'readme', uri: 'docs://readme', read: (uri) => ({ contents: [{ uri: uri.href, text: 'readme' }] }) }],
      prompts: () => [{ name: 'hello', get: () => ({ messages: [] }) }],
    });
    const handles: Array<{ enabled: boolean; enable(): void; disable(): void; remove(): void; update(changes: object): unknown }> = [];
    const hooky = defineExtension({
      manifest: { name: 'hooky', version: '1.0.0' },
      onServer: (server) => {
        handles.push(server.registerResource('changelog', 'docs://changelog', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'changelog' }] })));
        handles.push(server.registerPrompt('extra', {}, () => ({ messages: [] })));
      },
    });
    const host = await buildHost([base, hooky], { logger: silentLogger });
    const conn = await connect(host);
    const listed = async () => [
      ...(await conn.client.listResources()).resources.map((r) => r.uri),
      ...(await conn.client.listPrompts()).prompts.map((p) => p.name),
    ];
    expect(await listed()).toEqual(['docs://readme', 'docs://changelog', 'hello', 'extra']);
    for (const handle of handles) handle.disable();
    expect(handles.map((h) => h.enabled)).toEqual([false, false]);
    expect(await listed()).toEqual(['docs://readme', 'hello']);
    for (const handle of handles) handle.enable();
    expect(await listed()).toEqual(['docs://readme', 'docs://changelog', 'hello', 'extra']);
    for (const handle of handles) expect(() => handle.update({ title: 'x' })).toThrow(/not supported; remove\(\) it and register it again/);
    for (const handle of handles) handle.remove();
    handles[0]!.enable(); // removed stays removed
    expect(await listed()).toEqual(['docs://readme', 'hello']);
    await conn.close();
  });
});

describe('capabilities', () => {
  it('advertise tools and logging always, and resources, prompts, completions only where served', async () => {
    const plain = await connect(await buildHost(cast(), { logger: silentLogger }));
    expect(plain.client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {} });
    expect(plain.client.getServerCapabilities()).not.toHaveProperty('resources');
    expect(plain.client.getServerCapabilities()).not.toHaveProperty('prompts');
    expect(plain.client.getServerCapabilities()).not.toHaveProperty('completions');
    await plain.close();

    const rich = defineExtension({
      manifest: { name: 'rich', version: '1.0.0' },
      resources: () => [{ name: 'feed', uri: 'feed://latest', subscribe: true, read: (uri) => ({ contents: [{ uri: uri.href, text: 'news' }] }) }],
      prompts: () => [{ name: 'brief', argsSchema: z.object({ topic: z.string() }), get: () => ({ messages: [] }), complete: { topic: () => ['mcp'] } }],
    });
    const full = await connect(await buildHost([rich], { logger: silentLogger }));
    expect(full.client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {}, resources: { subscribe: true }, prompts: {}, completions: {} });
    await full.close();
  });
});
