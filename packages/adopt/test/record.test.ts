/**
 * Adoption by recording: modules written against either SDK line, run once
 * against the stand-in, served as ordinary contributions.
 */
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptServer, AdoptErrorCodes, ADOPTED_META_KEY } from '../src/index.js';
import { register as registerV1Zod3 } from './fixtures/v1-zod3.js';
import { register as registerV1Zod4 } from './fixtures/v1-zod4.js';
import { register as registerV2 } from './fixtures/v2.js';

const text = (result: { content: unknown[] }) => (result.content[0] as { text?: string }).text;

let host: McpHost | undefined;
const open: TestConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  await host?.stop();
  host = undefined;
});

async function serve(...extensions: Parameters<typeof buildHost>[0]): Promise<McpHost> {
  host = await buildHost(extensions, { logger: silentLogger, strict: true });
  return host;
}
async function client(h: McpHost, selection?: string, capabilities?: NonNullable<Parameters<typeof connect>[1]>['clientCapabilities']): Promise<TestConnection> {
  const c = await connect(h, { ...(selection !== undefined ? { selection } : {}), ...(capabilities ? { clientCapabilities: capabilities } : {}) });
  open.push(c);
  return c;
}

describe('a v1 module with zod 3 schemas (positional overloads)', () => {
  it('serves its tools validated by the original schema: preprocess, default and transform still apply', async () => {
    const adopted = await adoptServer(registerV1Zod3, { name: 'legacy', from: 'fixture-v1-zod3@1.2.3', logger: silentLogger });
    const c = await client(await serve(adopted));
    expect(text(await c.callTool('repeat', { word: 'hi', times: '3' }))).toBe('HI HI HI');
    expect(text(await c.callTool('repeat', { word: 'yo' }))).toBe('YO YO');
    const invalid = await c.callTool('repeat', { word: 'yo', times: 0 });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/times/);
    const listed = (await c.client.listTools()).tools.find((t) => t.name === 'repeat')!;
    expect(listed.inputSchema.required).toEqual(['word']);
    expect(listed.annotations).toEqual({ readOnlyHint: true });
    expect(listed._meta?.[ADOPTED_META_KEY]).toEqual({ how: 'recorded', name: 'repeat', from: 'fixture-v1-zod3@1.2.3' });
    expect(adopted.manifest.version).toBe('1.2.3');
  });

  it('gives a v1 handler without arguments its extra first', async () => {
    const c = await client(await serve(await adoptServer(registerV1Zod3, { name: 'legacy', logger: silentLogger })));
    expect(text(await c.callTool('whoami'))).toMatch(/^request \d+ session none$/);
  });

  it('repairs an invalid name and a missing description, and reports both', async () => {
    const adopted = await adoptServer(registerV1Zod3, { name: 'legacy', logger: silentLogger });
    expect(adopted.adoption.tools.map((t) => [t.original, t.name])).toContainEqual(['bad name!', 'bad_name_']);
    expect(adopted.adoption.notes.filter((n) => n.kind === 'repaired').map((n) => n.subject)).toEqual(['tool "whoami"', 'tool "bad name!"', 'tool "bad name!"']);
    const c = await client(await serve(adopted));
    expect(text(await c.callTool('bad_name_', { n: 21 }))).toBe('42');
  });

  it('serves its resources, templates, prompts and completions', async () => {
    const c = await client(await serve(await adoptServer(registerV1Zod3, { name: 'legacy', logger: silentLogger })));
    expect((await c.client.readResource({ uri: 'v1://greeting' })).contents[0]).toMatchObject({ text: 'hello from v1' });
    expect((await c.client.readResource({ uri: 'v1://users/ada' })).contents[0]).toMatchObject({ text: 'user ada' });
    const users = await c.client.complete({ ref: { type: 'ref/resource', uri: 'v1://users/{id}' }, argument: { name: 'id', value: 'a' } });
    expect(users.completion.values).toEqual(['ada', 'alan']);
    const prompt = await c.client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Say hello to Ada.' });
    const names = await c.client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'Al' } });
    expect(names.completion.values).toEqual(['Alan']);
  });
});

describe('a v1 module with zod 4 schemas (registerTool, calls back into its server)', () => {
  it('serves structured output and relays progress and logging to the calling client', async () => {
    const c = await client(await serve(await adoptServer(registerV1Zod4, { name: 'calc', logger: silentLogger })));
    expect((await c.callTool('add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
    const logs: unknown[] = [];
    c.client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
    const progress: number[] = [];
    const result = await c.client.callTool({ name: 'count', arguments: { n: 3 } }, { onprogress: (p) => progress.push(p.progress) });
    expect(text(result)).toBe('counted to 3');
    expect(progress).toEqual([1, 2, 3]);
    expect(logs).toEqual(['step 1', 'step 2', 'step 3']);
  });

  it('routes server.server.createMessage to the client of the current call', async () => {
    const h = await serve(await adoptServer(registerV1Zod4, { name: 'calc', logger: silentLogger }));
    const c = await client(h, undefined, { sampling: {} });
    c.client.setRequestHandler('sampling/createMessage', (request) => ({
      model: 'test-model',
      role: 'assistant',
      content: { type: 'text', text: `echo ${(request.params.messages[0]?.content as { text: string }).text}` },
    }));
    expect(text(await c.callTool('ask', { question: 'why?' }))).toBe('model said: echo why?');
  });

  it('applies handles per minted server: a tool disabled at registration is enabled on one connection only', async () => {
    const h = await serve(await adoptServer(registerV1Zod4, { name: 'calc', logger: silentLogger }));
    const first = await client(h);
    const second = await client(h);
    expect(await first.toolNames()).not.toContain('secret');
    await first.callTool('reveal');
    expect(await first.toolNames()).toContain('secret');
    expect(text(await first.callTool('secret'))).toBe('the secret');
    expect(await second.toolNames()).not.toContain('secret');
  });
});

describe('a v2 module', () => {
  it('gets v2 ctx in its handlers, and its template list, completions and prompt', async () => {
    const c = await client(await serve(await adoptServer(registerV2, { name: 'modern', toolset: { name: 'modern', default: false, description: 'A v2 module.' }, logger: silentLogger })), 'modern');
    expect(text(await c.callTool('shout', { message: 'hey' }))).toBe('HEY!');
    expect(text(await c.callTool('session'))).toBe('method tools/call');
    expect((await c.client.listResources()).resources.map((r) => r.uri)).toEqual(['notes://1', 'notes://2']);
    expect((await c.client.readResource({ uri: 'notes://2' })).contents[0]).toMatchObject({ text: 'note 2' });
    const topics = await c.client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'topic', value: 'z' } });
    expect(topics.completion.values).toEqual(['zod']);
  });

  it('is selectable: an opt-in toolset is absent until the URL asks for it', async () => {
    const h = await serve(await adoptServer(registerV2, { name: 'modern', toolset: { name: 'modern', default: false }, logger: silentLogger }));
    expect(await (await client(h)).toolNames()).toEqual([]);
    expect(await (await client(h, 'modern')).toolNames()).toEqual(['shout', 'session']);
    const described = await h.describe();
    expect(described.toolsets.find((t) => t.name === 'modern')?.description).toBe('Tools adopted (recorded).');
  });
});

describe('naming', () => {
  it('prefixes, renames, includes and excludes by original name, and groups tools into toolsets', async () => {
    const adopted = await adoptServer(registerV1Zod4, {
      name: 'calc',
      prefix: 'calc_',
      rename: { add: 'plus' },
      exclude: ['secret', /^rev/],
      group: (tool) => (tool.name === 'ask' ? 'calc-llm' : undefined),
      toolsets: [{ name: 'calc-llm', default: false, description: 'Needs a model.' }],
      logger: silentLogger,
    });
    const h = await serve(adopted);
    expect(await (await client(h)).toolNames()).toEqual(['plus', 'calc_count']);
    expect(await (await client(h, 'calc-llm')).toolNames()).toEqual(['plus', 'calc_count', 'calc_ask']);
  });
});

describe('refusals', () => {
  it('refuses a module that installs its own tools/call handler', async () => {
    const attempt = adoptServer((server: { server: { setRequestHandler(method: string, handler: () => unknown): void } }) => server.server.setRequestHandler('tools/call', () => ({})), { name: 'rogue', logger: silentLogger });
    await expect(attempt).rejects.toMatchObject({ code: AdoptErrorCodes.REFUSED, message: expect.stringContaining('own "tools/call" request handler') });
  });

  it('refuses a module that connects its server itself', async () => {
    const attempt = adoptServer(async (server: { connect(transport: unknown): Promise<void> }) => await server.connect({}), { name: 'rogue', logger: silentLogger });
    await expect(attempt).rejects.toMatchObject({ code: AdoptErrorCodes.REFUSED, message: expect.stringContaining('calls connect() itself') });
  });

  it('reports a task tool as left out, and refuses it under strict', async () => {
    const tasks = (server: { experimental: { tasks: { registerToolTask(name: string, config: object, handler: object): void } }; registerTool(name: string, config: object, cb: () => unknown): void }) => {
      server.registerTool('plain', { description: 'Plain.' }, () => 'ok');
      server.experimental.tasks.registerToolTask('slow', { description: 'A task.' }, {});
    };
    const adopted = await adoptServer(tasks, { name: 'tasky', logger: silentLogger });
    expect(adopted.adoption.tools.map((t) => t.name)).toEqual(['plain']);
    expect(adopted.adoption.notes).toContainEqual(expect.objectContaining({ kind: 'left-out', subject: 'tool "slow"' }));
    await expect(adoptServer(tasks, { name: 'tasky', strict: true, logger: silentLogger })).rejects.toMatchObject({ code: AdoptErrorCodes.REFUSED, message: expect.stringContaining('tool "slow": it is a task tool') });
  });

  it('notes a module that reads process.argv while registering', async () => {
    const adopted = await adoptServer((server: { registerTool(name: string, config: object, cb: () => unknown): void }) => {
      const port = process.argv[2] ?? '80';
      server.registerTool('port', { description: 'The port.' }, () => port);
    }, { name: 'argv-reader', logger: silentLogger });
    expect(adopted.adoption.notes).toContainEqual(expect.objectContaining({ kind: 'assumed', subject: 'process.argv' }));
  });
});
