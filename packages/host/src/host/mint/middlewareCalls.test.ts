/**
 * Middleware on minted servers: which requests it wraps (tools/call by
 * default; tools/list, resources/read, prompts/get when it asks), only where
 * its extension participates, and how a failure reaches the client on each.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCodes } from '../../kernel/errors.js';
import { defineExtension } from '../../contract/extension.js';
import { buildHost } from '../host.js';
import type { MiddlewareCall } from '../../contract/middleware.js';
import { captureLogger, connect } from '../../testing/index.js';
import { defineTool } from '../../contract/tool.js';

const seen: string[] = [];
const content = defineExtension({
  manifest: { name: 'content', version: '1.0.0' },
  toolsets: () => [{ name: 'content' }, { name: 'extra', default: false }],
  tools: () => [defineTool({ name: 'echo', description: 'Echo.', inputSchema: z.object({ text: z.string().optional() }), handler: (args) => args.text ?? '' })],
  resources: () => [{ name: 'readme', uri: 'docs://readme', read: (uri) => ({ contents: [{ uri: uri.href, text: 'hello' }] }) }],
  prompts: () => [{ name: 'greet', description: 'Greet.', get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }) }],
});
const tracer = defineExtension({
  manifest: { name: 'tracer', version: '1.0.0' },
  toolsets: () => [{ name: 'content' }],
  middleware: () => [
    {
      name: 'trace',
      methods: ['tools/call', 'tools/list', 'resources/read', 'prompts/get'],
      handle: async (call: MiddlewareCall, next) => {
        seen.push(`${call.method}:${call.name ?? call.uri ?? ''}`);
        return await next();
      },
    },
  ],
});
const outsider = defineExtension({
  manifest: { name: 'outsider', version: '1.0.0' },
  toolsets: () => [{ name: 'outsider', default: false }],
  middleware: () => [{ name: 'never-here', handle: () => ({ isError: true, content: [{ type: 'text', text: 'outsider answered' }] }) }],
});

describe('middleware on minted servers', () => {
  it('wraps every method it names, where its extension participates', async () => {
    seen.length = 0;
    const host = await buildHost([content, tracer, outsider]);
    const conn = await connect(host);
    await conn.toolNames();
    expect((await conn.callTool('echo', { text: 'x' })).content).toEqual([{ type: 'text', text: 'x' }]);
    await conn.client.readResource({ uri: 'docs://readme' });
    await conn.client.getPrompt({ name: 'greet' });
    expect(seen).toEqual(['tools/list:', 'tools/call:echo', 'resources/read:docs://readme', 'prompts/get:greet']);
    await conn.close();
  });

  it('tells a tools/call layer the call key for key; the tool, described once, is frozen and shared by its calls', async () => {
    const calls: MiddlewareCall[] = [];
    const writer = defineExtension({
      manifest: { name: 'writer', version: '1.0.0' },
      toolsets: () => [{ name: 'content' }],
      middleware: () => [
        {
          name: 'writes-the-tool',
          handle: async (call: MiddlewareCall, next) => {
            calls.push(call);
            if (calls.length === 2) (call.tool as { name: string }).name = 'renamed';
            return await next();
          },
        },
      ],
    });
    const host = await buildHost([content, writer]);
    const conn = await connect(host);
    expect((await conn.callTool('echo', { text: 'x' })).content).toEqual([{ type: 'text', text: 'x' }]);
    const [first] = calls;
    expect(Object.keys(first!)).toEqual(['method', 'name', 'tool', 'arguments', 'selection', 'toolsets', 'tenant', 'ctx']);
    expect(first).toMatchObject({ method: 'tools/call', name: 'echo', tool: { name: 'echo', extension: 'content', toolset: 'content' }, arguments: { text: 'x' } });
    expect(first!.ctx.mcpReq.signal).toBeInstanceOf(AbortSignal);
    // The second call's layer writes to the shared description: that call fails closed, naming the layer; the next one sees it unchanged.
    const failed = await conn.callTool('echo', { text: 'y' });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain('writes-the-tool');
    // …and is reported once, with its extension, as a failure of the call phase.
    expect(host.report().problems.filter((p) => p.code === ErrorCodes.MIDDLEWARE_FAILED)).toEqual([expect.objectContaining({ extension: 'writer', subject: 'writes-the-tool', phase: 'call' })]);
    await conn.callTool('echo', { text: 'z' });
    expect(calls[2]!.tool).toBe(first!.tool);
    expect(calls[2]!.tool).toEqual({ name: 'echo', extension: 'content', toolset: 'content' });
    await conn.close();
  });

  it('does not apply where its extension does not participate (an inactive toolset)', async () => {
    const host = await buildHost([content, outsider]);
    const off = await connect(host);
    expect((await off.callTool('echo', { text: 'y' })).content).toEqual([{ type: 'text', text: 'y' }]);
    await off.close();
    const on = await connect(host, { selection: 'outsider' });
    expect((await on.callTool('echo', { text: 'y' })).content).toEqual([{ type: 'text', text: 'outsider answered' }]);
    await on.close();
  });

  it('fails list, read and get with a protocol error naming the middleware; logs each failure, reports the problem once', async () => {
    const broken = defineExtension({
      manifest: { name: 'broken', version: '1.0.0' },
      toolsets: () => [{ name: 'content' }],
      middleware: () => [{ name: 'explodes', methods: ['tools/list', 'resources/read', 'prompts/get'], handle: () => { throw new Error('boom'); } }],
    });
    const logger = captureLogger();
    const host = await buildHost([content, broken], { logger });
    const conn = await connect(host);
    const expected = /Middleware "explodes" of extension "broken" failed, so this call is refused: boom/;
    await expect(conn.toolNames()).rejects.toThrow(expected);
    await expect(conn.client.readResource({ uri: 'docs://readme' })).rejects.toThrow(expected);
    await expect(conn.client.getPrompt({ name: 'greet' })).rejects.toThrow(expected);
    // tools/call is not among its methods: unaffected.
    expect((await conn.callTool('echo', { text: 'z' })).isError).toBeUndefined();
    // The problem log keeps a repeated problem once (moved to the back); the log line is per failure.
    expect(host.report().problems.filter((p) => p.code === ErrorCodes.MIDDLEWARE_FAILED)).toEqual([expect.objectContaining({ extension: 'broken', subject: 'explodes', phase: 'call' })]);
    expect(logger.entries.filter((e) => e.level === 'error' && e.fields['extension'] === 'broken' && e.fields['middleware'] === 'explodes')).toHaveLength(3);
    await conn.close();
  });

  it('lets the request\'s own errors through: an unknown resource is still "not found"', async () => {
    const host = await buildHost([content, tracer]);
    const conn = await connect(host);
    await expect(conn.client.readResource({ uri: 'docs://nope' })).rejects.toThrow(/Resource docs:\/\/nope not found/);
    expect(host.report().problems.filter((p) => p.code === ErrorCodes.MIDDLEWARE_FAILED)).toHaveLength(0);
    await conn.close();
  });

  it('refuses an invalid middleware entry at registration, costing only that entry', async () => {
    const sloppy = defineExtension({
      manifest: { name: 'sloppy', version: '1.0.0' },
      toolsets: () => [{ name: 'content' }],
      middleware: () => [{ name: '', handle: () => undefined } as never, { name: 'ok', handle: (_c: MiddlewareCall, next) => next() }],
    });
    const host = await buildHost([content, sloppy], { logger: captureLogger() });
    const problem = host.report().problems.find((p) => p.code === ErrorCodes.CONTRIBUTION_FAILED && p.extension === 'sloppy');
    expect(problem?.message).toContain('has no name');
    const conn = await connect(host);
    expect((await conn.callTool('echo', { text: 'ok' })).content).toEqual([{ type: 'text', text: 'ok' }]);
    await conn.close();
  });
});
