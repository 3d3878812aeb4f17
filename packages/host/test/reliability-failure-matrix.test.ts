/**
 * The failure matrix of spec §6, one `describe` per row: for each way an
 * extension can misbehave, what is left out, that nothing else is lost (the
 * healthy extensions' tools, resources and prompts are still listed and still
 * answer), and what is logged — at warn or error, with the extension's name
 * and the error code as structured fields, so an operator can query for them.
 *
 * Rows 1 and 2 use extensions discovered from packages laid out on disk, as
 * the command finds them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadExtensions } from '../src/discovery/discovery.js';
import { ErrorCodes, type ErrorCode } from '../src/kernel/errors.js';
import type { DeferredExtension, McpExtension } from '../src/contract/extension.js';
import { buildHost, type HostOptions, type McpHost } from '../src/host/host.js';
import { silentLogger } from '../src/kernel/logger.js';
import { captureLogger, type CapturedLog } from '../src/testing/captureLogger.js';
import { connect } from '../src/testing/index.js';
import { defineExtension, defineTool, type ToolContext } from '../src/index.js';
import { extensionSource, layoutApp, type FixtureApp } from './fixtures/packages.js';

const tool = (name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({ name, description: `The ${name} tool.`, handler: () => `${name} ok`, ...extra });

/** The healthy baseline every row is measured against: tools, a resource and a prompt. */
function baseline(): McpExtension[] {
  return [
    defineExtension({
      manifest: { name: 'core', version: '1.0.0' },
      toolsets: () => [{ name: 'core', always: true }],
      tools: () => [tool('ping')],
      resources: () => [{ name: 'readme', uri: 'mem://core/readme', read: (uri) => ({ contents: [{ uri: uri.href, text: 'read me' }] }) }],
      prompts: () => [{ name: 'greet', get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }) }],
    }),
    defineExtension({ manifest: { name: 'spaces', version: '1.0.0' }, toolsets: () => [{ name: 'spaces' }], tools: () => [tool('list_spaces'), tool('read_file')] }),
  ];
}
const BASELINE_TOOLS = ['list_spaces', 'ping', 'read_file'];

type Logged = ReturnType<typeof captureLogger>;

async function hostWith(extensions: ReadonlyArray<McpExtension | DeferredExtension>, options: HostOptions = {}): Promise<{ host: McpHost; logger: Logged }> {
  const logger = captureLogger();
  const host = await buildHost([...baseline(), ...extensions], { logger, ...options });
  hosts.push(host);
  return { host, logger };
}
const hosts: McpHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
});

/** What a real client sees on a selection. */
async function surface(host: McpHost, selection = '') {
  const conn = await connect(host, { selection });
  try {
    const tools = (await conn.toolNames()).sort();
    const caps = conn.client.getServerCapabilities() ?? {};
    const resources = caps.resources ? (await conn.client.listResources()).resources.map((r) => r.name).sort() : [];
    const prompts = caps.prompts ? (await conn.client.listPrompts()).prompts.map((p) => p.name).sort() : [];
    return { tools, resources, prompts };
  } finally {
    await conn.close();
  }
}

/** Nothing else is lost: every baseline tool, resource and prompt is listed and answers. */
async function expectBaselineIntact(host: McpHost, selection = ''): Promise<void> {
  const conn = await connect(host, { selection });
  try {
    const listed = await conn.toolNames();
    for (const name of BASELINE_TOOLS) {
      expect(listed).toContain(name);
      expect(await conn.callTool(name)).toEqual({ content: [{ type: 'text', text: `${name} ok` }] });
    }
    expect((await conn.client.readResource({ uri: 'mem://core/readme' })).contents).toEqual([{ uri: 'mem://core/readme', text: 'read me' }]);
    expect((await conn.client.getPrompt({ name: 'greet' })).messages).toHaveLength(1);
  } finally {
    await conn.close();
  }
}

/**
 * A contained failure is never silent: it is logged (warn or error, with the
 * code and the extension as fields) and `host.report()` keeps it. Returns the log entry.
 */
function expectReported(host: McpHost, logger: Logged, code: ErrorCode, extension: string): CapturedLog {
  expect(problemOf(host, extension, code), `host.report() keeps a ${code} problem of "${extension}"`).toBeDefined();
  const entry = logger.entries.find((e) => (e.level === 'error' || e.level === 'warn') && e.fields.code === code && e.fields.extension === extension);
  expect(entry, `a warn/error log with code ${code} and extension "${extension}"; logged: ${JSON.stringify(logger.entries.filter((e) => e.fields.code !== undefined).map((e) => [e.fields.code, e.fields.extension]))}`).toBeDefined();
  return entry!;
}

/** The problem `host.report()` keeps for an extension. */
function problemOf(host: McpHost, extension: string, code: ErrorCode) {
  return host.report().problems.find((p) => p.extension === extension && p.code === code);
}

function stateOf(host: McpHost, extension: string) {
  return host.report().extensions.find((e) => e.name === extension)?.state;
}

// ---------------------------------------------------------------------------
// Rows 1 and 2 use packages on disk.

let app: FixtureApp;
let discovered: DeferredExtension[];
const entries = (...names: string[]) => {
  const picked = discovered.filter((e) => names.includes(e.manifest.name));
  expect(picked.map((e) => e.manifest.name).sort()).toEqual([...names].sort());
  return picked;
};

beforeAll(async () => {
  const withDeps = (name: string, dependencies: string[]) => ({ extensions: { [name]: { module: './index.js', dependencies } } });
  app = await layoutApp('pnpm', [
    { name: 'ext-good', reactorMcp: { extensions: { good: './index.js' } }, files: { 'index.js': extensionSource({ name: 'good', tools: ['good_tool'] }) } },
    // Row 1
    { name: 'ext-missing', notInstalled: true },
    { name: 'ext-throws', reactorMcp: { extensions: { throws: './index.js' } }, files: { 'index.js': extensionSource({ name: 'throws', tools: ['never_served'], throwOnImport: 'DATABASE_URL is not set' }) } },
    { name: 'ext-bad-entry', reactorMcp: { extensions: { 'bad-entry': { module: 7 } } } },
    // Row 2
    { name: 'ext-bad-version', version: 'one', reactorMcp: { extensions: { versioned: './index.js' } }, files: { 'index.js': extensionSource({ name: 'versioned', tools: ['versioned_tool'] }) } },
    { name: 'ext-future', hostRange: '^99.0.0', reactorMcp: { extensions: { future: './index.js' } }, files: { 'index.js': extensionSource({ name: 'future', tools: ['future_tool'] }) } },
    { name: 'ext-needs-future', reactorMcp: withDeps('needs-future', ['future']), files: { 'index.js': extensionSource({ name: 'needs-future', tools: ['needs_future_tool'] }) } },
    { name: 'ext-cycle-a', reactorMcp: withDeps('cycle-a', ['cycle-b']), files: { 'index.js': extensionSource({ name: 'cycle-a', tools: ['cycle_a_tool'] }) } },
    { name: 'ext-cycle-b', reactorMcp: withDeps('cycle-b', ['cycle-a']), files: { 'index.js': extensionSource({ name: 'cycle-b', tools: ['cycle_b_tool'] }) } },
    { name: 'ext-cycle-user', reactorMcp: withDeps('cycle-user', ['cycle-a']), files: { 'index.js': extensionSource({ name: 'cycle-user', tools: ['cycle_user_tool'] }) } },
  ]);
  discovered = await loadExtensions({ root: app.root, logger: silentLogger });
});
afterAll(() => app.remove());

describe('row 1: a package cannot be found, imported, or its reactorMcp entry is invalid — costs that extension', () => {
  it.each([
    ['not installed', 'ext-missing', ErrorCodes.PACKAGE_INVALID, 'is not installed'],
    ['its import throws', 'throws', ErrorCodes.LOAD_FAILED, 'DATABASE_URL is not set'],
    ['its reactorMcp entry is invalid', 'bad-entry', ErrorCodes.PACKAGE_INVALID, 'reactorMcp.extensions.bad-entry.module'],
  ] as const)('%s (%s): left out as failed, logged with its name and %s, the rest served', async (_why, name, code, detail) => {
    const { host, logger } = await hostWith(entries('good', name));
    expect(stateOf(host, name)).toBe('failed');
    expect(problemOf(host, name, code)?.message).toContain(detail);
    expect(expectReported(host, logger, code, name).msg).toContain(detail);
    expect(stateOf(host, 'good')).toBe('active');
    expect((await surface(host)).tools).toEqual(['good_tool', ...BASELINE_TOOLS].sort());
    await expectBaselineIntact(host);
  });
});

describe('row 2: manifest invalid, incompatible host range, missing or cyclic dependency — costs that extension and its dependents', () => {
  it('a discovered package with an invalid manifest (version) is left out, logged PACKAGE_INVALID', async () => {
    const [entry] = entries('ext-bad-version');
    const { host, logger } = await hostWith([...entries('good'), entry!]);
    expect(stateOf(host, 'ext-bad-version')).toBe('failed');
    expect(expectReported(host, logger, ErrorCodes.PACKAGE_INVALID, 'ext-bad-version').msg).toContain('"version" is invalid');
    expect((await surface(host)).tools).toEqual(['good_tool', ...BASELINE_TOOLS].sort());
    await expectBaselineIntact(host);
  });

  it('an extension object with an invalid manifest is left out, logged MANIFEST_INVALID', async () => {
    const { host, logger } = await hostWith([defineExtension({ manifest: { name: 'Bad Name', version: '1.0.0' }, tools: () => [tool('bad_name_tool')] })]);
    expect(stateOf(host, 'Bad Name')).toBe('failed');
    expectReported(host, logger, ErrorCodes.MANIFEST_INVALID, 'Bad Name');
    expect((await surface(host)).tools).toEqual(BASELINE_TOOLS);
    await expectBaselineIntact(host);
  });

  it('a discovered package for another host version is left out (EXTENSION_INCOMPATIBLE), and so is the extension depending on it', async () => {
    const { host, logger } = await hostWith(entries('good', 'future', 'needs-future'));
    expect(stateOf(host, 'future')).toBe('failed');
    expect(stateOf(host, 'needs-future')).toBe('failed');
    expect(expectReported(host, logger, ErrorCodes.EXTENSION_INCOMPATIBLE, 'future').msg).toContain('^99.0.0');
    expect(expectReported(host, logger, ErrorCodes.DEPENDENCY_MISSING, 'needs-future').msg).toContain('"future", which failed');
    expect((await surface(host)).tools).toEqual(['good_tool', ...BASELINE_TOOLS].sort());
    await expectBaselineIntact(host);
  });

  it('discovered packages in a dependency cycle are left out (DEPENDENCY_CYCLE), and so is one depending on the cycle', async () => {
    const { host, logger } = await hostWith(entries('good', 'cycle-a', 'cycle-b', 'cycle-user'));
    for (const name of ['cycle-a', 'cycle-b', 'cycle-user']) expect(stateOf(host, name)).toBe('failed');
    expect(expectReported(host, logger, ErrorCodes.DEPENDENCY_CYCLE, 'cycle-a').msg).toMatch(/cycle-a → cycle-b → cycle-a|cycle-b → cycle-a → cycle-b/);
    expectReported(host, logger, ErrorCodes.DEPENDENCY_CYCLE, 'cycle-b');
    expectReported(host, logger, ErrorCodes.DEPENDENCY_MISSING, 'cycle-user');
    expect((await surface(host)).tools).toEqual(['good_tool', ...BASELINE_TOOLS].sort());
    await expectBaselineIntact(host);
  });

  it('an extension whose dependency is not registered is left out (DEPENDENCY_MISSING)', async () => {
    const { host, logger } = await hostWith([defineExtension({ manifest: { name: 'orphan', version: '1.0.0', dependencies: ['nowhere'] }, tools: () => [tool('orphan_tool')] })]);
    expect(stateOf(host, 'orphan')).toBe('failed');
    expect(expectReported(host, logger, ErrorCodes.DEPENDENCY_MISSING, 'orphan').msg).toContain('"nowhere", which is not registered');
    expect((await surface(host)).tools).toEqual(BASELINE_TOOLS);
    await expectBaselineIntact(host);
  });
});

describe('row 3: toolsets(), tools(), resources(), prompts() or toolExtensions() throws — costs that extension\'s contributions, none half-made', () => {
  const boom = (point: string) => () => {
    throw new Error(`${point} exploded`);
  };
  it.each(['toolsets', 'tools', 'resources', 'prompts', 'toolExtensions'] as const)('%s() throws: none of its tools, resources or prompts are served', async (point) => {
    const healthy: Record<string, () => unknown[]> = {
      toolsets: () => [{ name: 'faulty' }],
      tools: () => [tool('faulty_tool')],
      resources: () => [{ name: 'faulty-resource', uri: 'mem://faulty', read: () => ({ contents: [] }) }],
      prompts: () => [{ name: 'faulty-prompt', get: () => ({ messages: [] }) }],
      // Would retitle ping if it were applied.
      toolExtensions: () => [['ping', { description: 'Narrowed by faulty.' }]],
    };
    const faulty = defineExtension({ manifest: { name: 'faulty', version: '1.0.0' }, ...healthy, [point]: boom(point) });
    const { host, logger } = await hostWith([faulty]);
    expect(stateOf(host, 'faulty')).toBe('failed');
    expect(expectReported(host, logger, ErrorCodes.CONTRIBUTION_FAILED, 'faulty').msg).toContain(`${point} exploded`);
    const seen = await surface(host);
    expect(seen).toEqual({ tools: BASELINE_TOOLS, resources: ['readme'], prompts: ['greet'] });
    expect(host.offeredTools().find((t) => t.name === 'ping')?.description).toBe('The ping tool.');
    await expectBaselineIntact(host);
  });
});

describe('row 4: a tool extension throws or returns a non-function — costs that tool', () => {
  it('leaves out exactly the tools it failed to extend (fail closed), logged TOOL_EXTENSION_FAILED naming the extension', async () => {
    const meddler = defineExtension({
      manifest: { name: 'meddler', version: '1.0.0' },
      tools: () => [tool('meddler_tool')],
      toolExtensions: () => [
        ['list_spaces', { wrap: () => { throw new Error('cannot wrap'); } }],
        ['read_file', { wrap: () => 'not a function' as never }],
      ],
    });
    const { host, logger } = await hostWith([meddler]);
    expect((await surface(host)).tools).toEqual(['meddler_tool', 'ping']);
    const logged = logger.entries.filter((e) => e.fields.code === ErrorCodes.TOOL_EXTENSION_FAILED);
    expect(logged.map((e) => [e.level, e.fields.tool, e.fields.extension])).toEqual([
      ['error', 'list_spaces', 'meddler'],
      ['error', 'read_file', 'meddler'],
    ]);
    for (const entry of logged) expect(entry.msg).toContain('"meddler"');
    expect(host.report().problems.filter((p) => p.code === ErrorCodes.TOOL_EXTENSION_FAILED).map((p) => [p.extension, p.subject])).toEqual([
      ['meddler', 'list_spaces'],
      ['meddler', 'read_file'],
    ]);
    expect(stateOf(host, 'meddler')).toBe('active');
    expect(stateOf(host, 'spaces')).toBe('active');
    const conn = await connect(host);
    expect(await conn.callTool('ping')).toEqual({ content: [{ type: 'text', text: 'ping ok' }] });
    expect(await conn.callTool('meddler_tool')).toEqual({ content: [{ type: 'text', text: 'meddler_tool ok' }] });
    await expect(conn.callTool('list_spaces')).rejects.toThrow(/not found/);
    await conn.close();
  });
});

describe('row 5: a resource or prompt fails to register — costs that one', () => {
  it('leaves out the invalid resource, prompt and a failing template list, and serves the extension\'s others', async () => {
    const docs = defineExtension({
      manifest: { name: 'docs', version: '1.0.0' },
      tools: () => [tool('docs_tool')],
      resources: () => [
        { name: 'manual', uri: 'mem://docs/manual', read: (uri) => ({ contents: [{ uri: uri.href, text: 'manual' }] }) },
        { name: 'broken-template', template: 'mem://{unclosed', read: () => ({ contents: [] }) },
        { name: 'pages', template: 'mem://docs/pages/{page}', read: (uri) => ({ contents: [{ uri: uri.href, text: 'page' }] }), list: () => { throw new Error('index unavailable'); } },
      ],
      prompts: () => [
        { name: 'summarize', get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'summarize' } }] }) },
        { name: 'no-get' } as never,
      ],
    });
    const { host, logger } = await hostWith([docs]);
    const seen = await surface(host);
    expect(seen).toEqual({ tools: ['docs_tool', ...BASELINE_TOOLS].sort(), resources: ['manual', 'readme'], prompts: ['greet', 'summarize'] });
    expect(logger.entries.filter((e) => e.fields.code === ErrorCodes.RESOURCE_INVALID && e.fields.extension === 'docs').map((e) => e.msg)).toEqual([
      expect.stringContaining('"broken-template"'),
      expect.stringContaining('index unavailable'),
    ]);
    expect(expectReported(host, logger, ErrorCodes.PROMPT_INVALID, 'docs').msg).toContain('"no-get"');
    expect(host.report().problems.filter((p) => p.code === ErrorCodes.RESOURCE_INVALID && p.extension === 'docs').map((p) => p.subject)).toEqual(['broken-template', 'pages']);
    const conn = await connect(host);
    expect((await conn.client.readResource({ uri: 'mem://docs/pages/intro' })).contents).toEqual([{ uri: 'mem://docs/pages/intro', text: 'page' }]);
    expect((await conn.client.listResourceTemplates()).resourceTemplates.map((t) => t.name)).toEqual(['pages']);
    await conn.close();
    await expectBaselineIntact(host);
  });
});

describe('row 6: onServer throws or times out — costs that extension\'s action', () => {
  it('skips the failing hooks only: their extensions\' tools are still served, other hooks still act', async () => {
    const { host, logger } = await hostWith(
      [
        defineExtension({ manifest: { name: 'hook-throws', version: '1.0.0' }, tools: () => [tool('throws_tool')], onServer: () => { throw new Error('hook exploded'); } }),
        defineExtension({ manifest: { name: 'hook-hangs', version: '1.0.0' }, tools: () => [tool('hangs_tool')], onServer: () => new Promise<void>(() => {}) }),
        defineExtension({
          manifest: { name: 'hook-works', version: '1.0.0' },
          tools: () => [tool('works_tool')],
          onServer: (server) => void server.registerTool('hook_added', { description: 'Added by a hook.' }, () => ({ content: [{ type: 'text', text: 'hook_added ok' }] })),
        }),
      ],
      { onServerTimeoutMs: 50 },
    );
    expect((await surface(host)).tools).toEqual(['hangs_tool', 'hook_added', 'throws_tool', 'works_tool', ...BASELINE_TOOLS].sort());
    expect(expectReported(host, logger, ErrorCodes.ON_SERVER_FAILED, 'hook-throws').msg).toContain('hook exploded');
    expect(expectReported(host, logger, ErrorCodes.ON_SERVER_FAILED, 'hook-hangs').msg).toContain('did not finish within 50 ms');
    for (const name of ['hook-throws', 'hook-hangs', 'hook-works']) expect(stateOf(host, name)).toBe('active');
    const conn = await connect(host);
    expect(await conn.callTool('throws_tool')).toEqual({ content: [{ type: 'text', text: 'throws_tool ok' }] });
    expect(await conn.callTool('hook_added')).toEqual({ content: [{ type: 'text', text: 'hook_added ok' }] });
    await conn.close();
    await expectBaselineIntact(host);
  });
});

describe('row 7: onStart throws — costs that extension, its contributions withdrawn', () => {
  it('at start-up: left out as failed, logged START_FAILED', async () => {
    const { host, logger } = await hostWith([
      defineExtension({ manifest: { name: 'no-db', version: '1.0.0' }, tools: () => [tool('query_db')], onStart: () => { throw new Error('connection refused'); } }),
    ]);
    expect(stateOf(host, 'no-db')).toBe('failed');
    expect(expectReported(host, logger, ErrorCodes.START_FAILED, 'no-db').msg).toContain('connection refused');
    expect((await surface(host)).tools).toEqual(BASELINE_TOOLS);
    await expectBaselineIntact(host);
  });

  it('when a held extension wakes: the selection naming it is served around it', async () => {
    const lazy = defineExtension({
      manifest: { name: 'lazy', version: '1.0.0', activationEvents: ['onToolset:lazy'] },
      toolsets: () => [{ name: 'lazy', default: false }],
      tools: () => [tool('lazy_tool')],
      onStart: () => Promise.reject(new Error('credentials expired')),
    });
    const { host, logger } = await hostWith([lazy]);
    expect(stateOf(host, 'lazy')).toBe('held');
    expect((await surface(host, 'lazy')).tools).toEqual(BASELINE_TOOLS);
    expect(stateOf(host, 'lazy')).toBe('failed');
    expect(expectReported(host, logger, ErrorCodes.START_FAILED, 'lazy').msg).toContain('credentials expired');
    await expectBaselineIntact(host, 'lazy');
  });
});

describe('row 8: a handler throws — costs that call', () => {
  it('answers isError with the message and no stack, logs TOOL_FAILED with extension and tool; the tool and the rest keep serving', async () => {
    let calls = 0;
    const { host, logger } = await hostWith([
      defineExtension({
        manifest: { name: 'flaky', version: '1.0.0' },
        tools: () => [tool('explode', { handler: () => { calls++; throw new Error(`disk on fire (${calls})`); } }), tool('steady')],
      }),
    ]);
    const conn = await connect(host);
    const first = await conn.callTool('explode');
    expect(first).toEqual({ isError: true, content: [{ type: 'text', text: 'disk on fire (1)' }] });
    expect(JSON.stringify(first)).not.toMatch(/\bat .*\.(ts|js):\d+/);
    const entry = expectReported(host, logger, ErrorCodes.TOOL_FAILED, 'flaky');
    expect(entry.fields.tool).toBe('explode');
    expect((await conn.callTool('explode')).content).toEqual([{ type: 'text', text: 'disk on fire (2)' }]);
    expect(await conn.callTool('steady')).toEqual({ content: [{ type: 'text', text: 'steady ok' }] });
    expect((await conn.toolNames()).sort()).toEqual(['explode', 'steady', ...BASELINE_TOOLS].sort());
    await conn.close();
    expect(stateOf(host, 'flaky')).toBe('active');
    await expectBaselineIntact(host);
  });
});

describe('row 9: a handler exceeds its time limit — costs that call, aborted through ctx.signal', () => {
  it('answers isError saying so, aborts the handler\'s signal, logs TOOL_TIMEOUT; the tool and the rest keep serving', async () => {
    const aborted: Array<Promise<unknown>> = [];
    const hang = (_args: unknown, ctx: ToolContext) => {
      aborted.push(new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason))));
      return new Promise<never>(() => {});
    };
    const { host, logger } = await hostWith([
      defineExtension({ manifest: { name: 'slow', version: '1.0.0' }, tools: () => [tool('hang', { timeoutMs: 30, handler: hang }), tool('quick')] }),
    ]);
    const conn = await connect(host);
    const result = await conn.callTool('hang');
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'Tool "hang" (extension "slow") timed out after 30 ms; the call was aborted.' }] });
    expect(String((await aborted[0]) as Error)).toContain('timed out after 30 ms');
    expect(expectReported(host, logger, ErrorCodes.TOOL_TIMEOUT, 'slow').fields).toMatchObject({ tool: 'hang', timeoutMs: 30 });
    expect(await conn.callTool('quick')).toEqual({ content: [{ type: 'text', text: 'quick ok' }] });
    expect(await conn.toolNames()).toContain('hang');
    await conn.close();
    await expectBaselineIntact(host);
    expect(host.report().problems).toContainEqual(expect.objectContaining({ code: ErrorCodes.TOOL_TIMEOUT, extension: 'slow', subject: 'hang' }));
  });
});

describe('every row at once', () => {
  it('one host holding every kind of fault (rows 1–9) still serves the rest, and its report lists each problem', async () => {
    const { host } = await hostWith([
      ...entries('throws', 'bad-entry', 'future', 'cycle-a', 'cycle-b'),
      defineExtension({ manifest: { name: 'Bad Name', version: '1.0.0' } }),
      defineExtension({ manifest: { name: 'bad-tools', version: '1.0.0' }, tools: () => { throw new Error('x'); } }),
      defineExtension({ manifest: { name: 'meddler', version: '1.0.0' }, toolExtensions: () => [['read_file', { wrap: () => { throw new Error('y'); } }]] }),
      defineExtension({ manifest: { name: 'hook-throws', version: '1.0.0' }, onServer: () => { throw new Error('z'); } }),
      defineExtension({ manifest: { name: 'no-db', version: '1.0.0' }, onStart: () => { throw new Error('w'); } }),
      defineExtension({
        manifest: { name: 'docs', version: '1.0.0' },
        resources: () => [
          { name: 'broken-template', template: 'mem://{unclosed', read: () => ({ contents: [] }) },
          { name: 'pages', template: 'mem://docs/pages/{page}', read: () => ({ contents: [] }), list: () => { throw new Error('v'); } },
        ],
        prompts: () => [{ name: 'no-get' } as never],
      }),
      defineExtension({ manifest: { name: 'flaky', version: '1.0.0' }, tools: () => [tool('explode', { handler: () => { throw new Error('u'); } })] }),
      defineExtension({ manifest: { name: 'slow', version: '1.0.0' }, tools: () => [tool('hang', { timeoutMs: 30, handler: () => new Promise<never>(() => {}) })] }),
    ]);
    expect((await surface(host)).tools).toEqual(['explode', 'hang', 'list_spaces', 'ping']);
    const conn = await connect(host);
    expect(await conn.callTool('ping')).toEqual({ content: [{ type: 'text', text: 'ping ok' }] });
    expect((await conn.callTool('explode')).isError).toBe(true);
    expect((await conn.callTool('hang')).isError).toBe(true);
    await conn.close();
    const codes = new Set(host.report().problems.map((p) => `${p.extension}:${p.code}`));
    for (const expected of [
      `throws:${ErrorCodes.LOAD_FAILED}`,
      `bad-entry:${ErrorCodes.PACKAGE_INVALID}`,
      `future:${ErrorCodes.EXTENSION_INCOMPATIBLE}`,
      `cycle-a:${ErrorCodes.DEPENDENCY_CYCLE}`,
      `Bad Name:${ErrorCodes.MANIFEST_INVALID}`,
      `bad-tools:${ErrorCodes.CONTRIBUTION_FAILED}`,
      `meddler:${ErrorCodes.TOOL_EXTENSION_FAILED}`,
      `hook-throws:${ErrorCodes.ON_SERVER_FAILED}`,
      `no-db:${ErrorCodes.START_FAILED}`,
      `docs:${ErrorCodes.RESOURCE_INVALID}`,
      `docs:${ErrorCodes.PROMPT_INVALID}`,
      `flaky:${ErrorCodes.TOOL_FAILED}`,
      `slow:${ErrorCodes.TOOL_TIMEOUT}`,
    ]) {
      expect(codes).toContain(expected);
    }
    expect(host.report().ok).toBe(false);
  });
});
