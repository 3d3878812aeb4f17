/**
 * Pins the SDK internals a snapshot reads, per SDK line: if an upgrade of
 * @modelcontextprotocol/sdk 1.x or @modelcontextprotocol/server 2.x moves them,
 * this fails before any adopted server silently loses a tool.
 */
import { McpServer as V1McpServer, ResourceTemplate as V1ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as V2McpServer, ResourceTemplate as V2ResourceTemplate } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdoptErrorCodes } from './errors.js';
import { snapshotServer } from './snapshot.js';

const lines = [
  ['@modelcontextprotocol/sdk 1.x', () => new V1McpServer({ name: 'v1', version: '1.0.0' }, { instructions: 'Use v1 wisely.' }), V1ResourceTemplate, SubscribeRequestSchema],
  ['@modelcontextprotocol/server 2.x', () => new V2McpServer({ name: 'v2', version: '1.0.0' }, { instructions: 'Use v2 wisely.' }), V2ResourceTemplate, 'resources/subscribe'],
] as const;

/** The registration surface both lines share, loosely typed: the test exercises both classes alike. */
interface EitherServer {
  registerTool(...args: unknown[]): { disable(): void };
  registerResource(...args: unknown[]): unknown;
  registerPrompt(...args: unknown[]): unknown;
  server: { setRequestHandler(...args: unknown[]): void };
  connect(transport: unknown): Promise<void>;
}

describe.each(lines)('a built McpServer of %s', (_line, make, Template, subscribe) => {
  function built() {
    const server = make() as unknown as EitherServer;
    server.registerTool('add', { title: 'Add', description: 'Add.', inputSchema: { a: z.number(), b: z.number() }, annotations: { readOnlyHint: true } }, ({ a, b }: { a: number; b: number }) => ({ content: [{ type: 'text' as const, text: String(a + b) }] }));
    const off = server.registerTool('off', { description: 'Disabled.' }, () => ({ content: [] }));
    off.disable();
    server.registerResource('readme', 'docs://readme', { description: 'The readme.', mimeType: 'text/markdown' }, (uri: URL) => ({ contents: [{ uri: uri.href, text: '# hi' }] }));
    server.registerResource('page', new Template('docs://pages/{n}', { list: undefined, complete: { n: () => ['1'] } }), { description: 'A page.' }, (uri: URL) => ({ contents: [{ uri: uri.href, text: 'page' }] }));
    server.registerPrompt('plan', { description: 'Plan.', argsSchema: { goal: z.string() } }, ({ goal }: { goal: string }) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: goal } }] }));
    return server;
  }

  it('reads its tools, resources, templates, prompts and instructions', () => {
    const recording = snapshotServer(built(), 'pinned');
    expect(recording.tools.map((t) => [t.name, t.title, t.description, t.annotations, t.state.enabled])).toEqual([
      ['add', 'Add', 'Add.', { readOnlyHint: true }, true],
      ['off', undefined, 'Disabled.', undefined, false],
    ]);
    expect(recording.tools[0]?.inputSchema).toBeDefined();
    expect(recording.resources.map((r) => [r.name, r.uri ?? r.template?.uriTemplate, r.description, Object.keys(r.template?.complete ?? {})])).toEqual([
      ['readme', 'docs://readme', 'The readme.', []],
      ['page', 'docs://pages/{n}', 'A page.', ['n']],
    ]);
    expect(recording.prompts.map((p) => [p.name, p.description])).toEqual([['plan', 'Plan.']]);
    expect(recording.instructions).toMatch(/^Use v\d wisely\.$/);
    expect(recording.notes).toEqual([]);
  });

  it('notes a request handler the module installed itself', () => {
    const server = built();
    server.server.setRequestHandler(subscribe, () => ({}));
    expect(snapshotServer(server, 'pinned').notes).toContainEqual(expect.objectContaining({ kind: 'left-out', subject: 'request handler "resources/subscribe"' }));
  });

  it('refuses a server that is already connected', async () => {
    const server = built();
    await server.connect({ start: async () => {}, send: async () => {}, close: async () => {} });
    expect(() => snapshotServer(server, 'pinned')).toThrow(expect.objectContaining({ code: AdoptErrorCodes.REFUSED, message: expect.stringContaining('already connected') }));
  });
});

it('refuses what is not an McpServer', () => {
  expect(() => snapshotServer({ tools: [] }, 'pinned')).toThrow(expect.objectContaining({ code: AdoptErrorCodes.REFUSED, message: expect.stringContaining('is not an McpServer') }));
});
