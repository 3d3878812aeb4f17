/**
 * A real server no one here wrote: @modelcontextprotocol/server-everything
 * (v1 SDK, zod 4), adopted by recording its registration functions and by
 * snapshotting what its createServer() builds.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildHost, defineExtension, parseSelection, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { registerPrompts } from '@modelcontextprotocol/server-everything/dist/prompts/index.js';
import { registerResources } from '@modelcontextprotocol/server-everything/dist/resources/index.js';
import { createServer } from '@modelcontextprotocol/server-everything/dist/server/index.js';
import { registerConditionalTools, registerTools } from '@modelcontextprotocol/server-everything/dist/tools/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptServer, type AdoptedExtension } from '../src/index.js';

const everythingVersion = (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'), 'utf8')) as { version: string }).version;
const from = `@modelcontextprotocol/server-everything@${everythingVersion}`;
const text = (result: { content: unknown[] }) => (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');

/** server-everything's own registration functions, run once against the stand-in. */
async function recordEverything(): Promise<AdoptedExtension> {
  return await adoptServer(
    (server: unknown) => {
      registerTools(server);
      registerConditionalTools(server);
      registerResources(server);
      registerPrompts(server);
    },
    { name: 'everything', from, toolset: { name: 'everything', default: false, description: 'The MCP reference server.' }, logger: silentLogger },
  );
}

const spaces = defineExtension({
  manifest: { name: 'spaces', version: '1.0.0' },
  tools: () => [{ name: 'list_spaces', description: 'List the spaces.', handler: () => ['alpha'] }],
});

let host: McpHost | undefined;
const open: TestConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  await host?.stop();
  host = undefined;
});
async function client(h: McpHost, selection?: string, clientCapabilities?: NonNullable<Parameters<typeof connect>[1]>['clientCapabilities']): Promise<TestConnection> {
  const c = await connect(h, { ...(selection !== undefined ? { selection } : {}), ...(clientCapabilities ? { clientCapabilities } : {}) });
  open.push(c);
  return c;
}

describe(`${from} adopted by recording`, () => {
  it('lists its tools under its toolset and nowhere else', async () => {
    host = await buildHost([spaces, await recordEverything()], { logger: silentLogger, strict: true });
    expect(await (await client(host)).toolNames()).toEqual(['list_spaces']);
    const tools = await (await client(host, 'everything')).toolNames();
    expect(tools).toEqual(expect.arrayContaining(['list_spaces', 'echo', 'get-sum', 'trigger-sampling-request', 'trigger-elicitation-request']));
    expect(await (await client(host, 'only=everything')).toolNames()).not.toContain('list_spaces');
    const described = await host.describe(undefined);
    expect(described.toolsets.find((t) => t.name === 'everything')).toMatchObject({ description: 'The MCP reference server.', default: false });
  });

  it('answers echo and get-sum through a real client', async () => {
    host = await buildHost([await recordEverything()], { logger: silentLogger, strict: true });
    const c = await client(host, 'everything');
    expect(text(await c.callTool('echo', { message: 'hello' }))).toBe('Echo: hello');
    expect(text(await c.callTool('get-sum', { a: 2, b: 40 }))).toBe('The sum of 2 and 40 is 42.');
    const invalid = await c.callTool('get-sum', { a: 'two', b: 40 });
    expect(invalid.isError).toBe(true);
  });

  it('relays its sampling request to a client that supports sampling', async () => {
    host = await buildHost([await recordEverything()], { logger: silentLogger, strict: true });
    const c = await client(host, 'everything', { sampling: {} });
    const seen: string[] = [];
    c.client.setRequestHandler('sampling/createMessage', (request) => {
      seen.push((request.params.messages[0]?.content as { text: string }).text);
      return { model: 'stub-model', role: 'assistant', content: { type: 'text', text: 'forty-two' } };
    });
    const result = await c.callTool('trigger-sampling-request', { prompt: 'the answer?' });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('forty-two');
    expect(seen).toEqual(['Resource trigger-sampling-request context: the answer?']);
  });

  it('relays its elicitation request to a client that supports elicitation', async () => {
    host = await buildHost([await recordEverything()], { logger: silentLogger, strict: true });
    const c = await client(host, 'everything', { elicitation: { form: {} } });
    c.client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada Lovelace', check: true } }));
    const result = await c.callTool('trigger-elicitation-request', {});
    expect(text(result)).toContain('- Name: Ada Lovelace');
  });

  it('fails clearly when the calling client cannot sample', async () => {
    host = await buildHost([await recordEverything()], { logger: silentLogger, strict: true });
    const result = await (await client(host, 'everything')).callTool('trigger-sampling-request', { prompt: 'x' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('asked the client for sampling (sampling/createMessage), but the client connected without the sampling capability');
  });

  it('lets a ToolExtension wrap one of its tools', async () => {
    const audit: string[] = [];
    const wrapper = defineExtension({
      manifest: { name: 'audit', version: '1.0.0' },
      toolsets: () => [],
      toolExtensions: () => [['echo', {
        description: 'Echoes back the input string (audited).',
        wrap: (original) => async (args, ctx) => {
          audit.push(String(args.message));
          return await original({ message: `[audited] ${String(args.message)}` }, ctx);
        },
      }]],
    });
    host = await buildHost([await recordEverything(), wrapper], { logger: silentLogger, strict: true });
    const c = await client(host, 'everything');
    expect(text(await c.callTool('echo', { message: 'hi' }))).toBe('Echo: [audited] hi');
    expect(audit).toEqual(['hi']);
    expect((await c.client.listTools()).tools.find((t) => t.name === 'echo')?.description).toBe('Echoes back the input string (audited).');
    expect((await host.describe(parseSelection('everything'))).provenance.echo).toEqual({ offeredBy: 'everything', extendedBy: ['audit'] });
  });

  it('serves its resources and prompts', async () => {
    host = await buildHost([await recordEverything()], { logger: silentLogger, strict: true });
    const c = await client(host, 'everything');
    const read = await c.client.readResource({ uri: 'demo://resource/dynamic/text/1' });
    expect(read.contents[0]?.uri).toBe('demo://resource/dynamic/text/1');
    const prompts = (await c.client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));
    const got = await c.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris' } });
    expect(JSON.stringify(got.messages)).toContain('Paris');
  });

  it('reports what it could not carry over', async () => {
    const adopted = await recordEverything();
    const leftOut = adopted.adoption.notes.filter((n) => n.kind === 'left-out').map((n) => n.subject);
    expect(leftOut).toEqual(['tool "simulate-research-query"']);
    expect(adopted.adoption.notes).toContainEqual(expect.objectContaining({ kind: 'assumed', subject: 'client capabilities' }));
  });
});

describe(`${from} adopted by snapshot of createServer()`, () => {
  it('serves what createServer registered, reports its own handlers and hook, and runs its cleanup on stop', async () => {
    const adopted = await adoptServer(createServer, { name: 'everything', from, logger: silentLogger });
    expect(adopted.adoption.how).toBe('snapshot');
    expect(adopted.adoption.notes.map((n) => n.subject)).toEqual(expect.arrayContaining(['request handler "resources/subscribe"', 'request handler "resources/unsubscribe"', 'oninitialized hook']));
    host = await buildHost([adopted], { logger: silentLogger, strict: true });
    const c = await client(host);
    expect(text(await c.callTool('echo', { message: 'snap' }))).toBe('Echo: snap');
    expect(await c.toolNames()).not.toContain('trigger-sampling-request');
  });
});
