/**
 * One host, many kinds of extension — default, opt-in and held, always-on, two
 * on one toolset, a narrowing wrapper, a failing wrapper, a colliding tool, a
 * throwing onServer — checked through a real SDK client for several selections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildHost, defineExtension, defineTool, ErrorCodes, type McpHost } from '../src/index.js';
import { captureLogger, connect } from '../src/testing/index.js';

const text = (result: { content: unknown }) => (result.content as Array<{ text: string }>).map((c) => c.text).join('');

let host: McpHost;
let started: string[];
const logger = captureLogger();

beforeAll(async () => {
  started = [];
  host = await buildHost(
    [
      // Always on, whatever the URL says.
      defineExtension({
        manifest: { name: 'core', version: '1.0.0' },
        toolsets: () => [{ name: 'core', title: 'Core', always: true }],
        tools: () => [defineTool({ name: 'whoami', description: 'Who is connected.', handler: (_a, ctx) => `toolsets: ${[...ctx.toolsets].sort().join(',')}` })],
      }),
      // Default toolset, with instructions.
      defineExtension({
        manifest: { name: 'spaces', version: '1.2.0' },
        toolsets: () => [{ name: 'spaces', title: 'Spaces', instructions: 'Read files in spaces.' }],
        tools: () => [
          defineTool({
            name: 'read_file',
            description: 'Read a file in a space.',
            inputSchema: z.object({ space: z.string(), path: z.string() }),
            annotations: { readOnlyHint: true },
            handler: (args) => ({ space: args.space, path: args.path, text: 'hello' }),
          }),
          defineTool({ name: 'search', description: 'Search spaces.', handler: () => 'spaces search' }),
        ],
      }),
      // A second extension on the same toolset: its tools arrive with spaces'.
      defineExtension({
        manifest: { name: 'spaces-extra', version: '1.0.0' },
        toolsets: () => [{ name: 'spaces', title: 'Ignored: the first declaration is described' }],
        tools: () => [defineTool({ name: 'list_spaces', description: 'List spaces.', handler: () => ['climate-lab'] })],
      }),
      // Opt-in and held until a URL names it.
      defineExtension({
        manifest: { name: 'benchmarks', version: '1.0.0', activationEvents: ['onToolset:benchmarks'] },
        toolsets: () => [{ name: 'benchmarks', default: false, instructions: 'Compare runs.' }],
        tools: () => [defineTool({ name: 'best_run', description: 'Best run of a benchmark.', inputSchema: { benchmark: z.string() }, handler: (a) => `best of ${a.benchmark}` })],
        onStart: () => void started.push('benchmarks'),
      }),
      // Opt-in, not held; offers a colliding "search".
      defineExtension({
        manifest: { name: 'library', version: '1.0.0' },
        toolsets: () => [{ name: 'library', default: false }],
        tools: () => [defineTool({ name: 'search', description: 'Search books.', handler: () => 'library search' })],
      }),
      // Narrows spaces' read_file to one space.
      defineExtension({
        manifest: { name: 'tenant-lock', version: '1.0.0' },
        toolExtensions: () => [
          ['read_file', { order: 1, inputSchema: z.object({ path: z.string() }), description: 'Read a file in your space.', wrap: (original) => (args, ctx) => original({ ...args, space: 'mine' }, ctx) }],
        ],
      }),
      // A failing wrapper on "search": that tool is left out, fail closed.
      defineExtension({
        manifest: { name: 'broken-wrapper', version: '1.0.0' },
        toolsets: () => [{ name: 'broken', default: false }],
        toolExtensions: () => [['whoami', { wrap: () => { throw new Error('cannot wrap'); } }]],
      }),
      // A throwing onServer costs only its own action.
      defineExtension({
        manifest: { name: 'hooky', version: '1.0.0' },
        onServer: () => { throw new Error('hook failed'); },
      }),
    ],
    { logger, toolsetsTool: true, instructions: 'Integration host.' },
  );
});

afterAll(async () => {
  await host.stop();
});

describe('through a real SDK client', () => {
  it('the default URL serves always-on and default toolsets, narrowed and fail-closed', async () => {
    const conn = await connect(host);
    expect(await conn.toolNames()).toEqual(['read_file', 'search', 'list_spaces', 'list_server_toolsets']);
    // whoami is left out: its only extension failed while being applied.
    await expect(conn.callTool('whoami')).rejects.toThrow(/not found/);
    const read = (await conn.client.listTools()).tools.find((t) => t.name === 'read_file')!;
    expect(read.description).toBe('Read a file in your space.');
    expect(read.inputSchema.required).toEqual(['path']);
    expect(JSON.parse(text(await conn.callTool('read_file', { path: 'a.md' })))).toEqual({ space: 'mine', path: 'a.md', text: 'hello' });
    expect(conn.client.getInstructions()).toBe('Integration host.\n\n## Spaces\n\nRead files in spaces.');
    expect(started).toEqual([]);
    await conn.close();
  });

  it('?benchmarks wakes the held extension and adds its tools and instructions', async () => {
    const conn = await connect(host, { selection: 'benchmarks' });
    expect(await conn.toolNames()).toContain('best_run');
    expect(text(await conn.callTool('best_run', { benchmark: 'gsm8k-mini' }))).toBe('best of gsm8k-mini');
    expect(conn.client.getInstructions()).toContain('## benchmarks\n\nCompare runs.');
    expect(started).toEqual(['benchmarks']);
    await conn.close();
  });

  it('?only=library serves library\'s search, not spaces\'', async () => {
    const conn = await connect(host, { selection: 'only=library' });
    expect(await conn.toolNames()).toEqual(['search', 'list_server_toolsets']);
    expect(text(await conn.callTool('search'))).toBe('library search');
    await expect(conn.callTool('read_file', { path: 'x' })).rejects.toThrow(/not found/);
    await conn.close();
  });

  it('?library with spaces on: the first registered "search" wins and the collision is reported', async () => {
    const conn = await connect(host, { selection: 'library' });
    expect(text(await conn.callTool('search'))).toBe('spaces search');
    const described = await host.describe((await import('../src/index.js')).parseSelection('library'));
    expect(described.conflicts).toEqual([{ tool: 'search', served: 'spaces', ignored: ['library'] }]);
    await conn.close();
  });

  it('?without=spaces&nosuch is served, and list_server_toolsets reports the unknown name', async () => {
    const conn = await connect(host, { selection: 'without=spaces&nosuch' });
    expect(await conn.toolNames()).toEqual(['list_server_toolsets']);
    const listed = (await conn.callTool('list_server_toolsets')).structuredContent as { unknown: string[]; active: string[]; howToSelect: string };
    expect(listed.unknown).toEqual(['nosuch']);
    expect(listed.active).toEqual(['core', 'hooky', 'tenant-lock']); // extensions declaring no toolset get one named after them
    expect(listed.howToSelect).toContain('?only=a,b');
    await conn.close();
  });

  it('invalid arguments never reach the handler', async () => {
    const conn = await connect(host, { selection: 'benchmarks' });
    const result = await conn.callTool('best_run', { benchmark: 42 });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Input validation error/);
    await conn.close();
  });

  it('reports every contained failure with the extension and its code', () => {
    const problems = host.report().problems.map((p) => [p.extension, p.code]);
    expect(problems).toContainEqual(['broken-wrapper', ErrorCodes.TOOL_EXTENSION_FAILED]);
    expect(problems).toContainEqual(['hooky', ErrorCodes.ON_SERVER_FAILED]);
    expect(logger.entries.some((e) => e.level === 'error' && e.fields.extension === 'hooky')).toBe(true);
  });
});
