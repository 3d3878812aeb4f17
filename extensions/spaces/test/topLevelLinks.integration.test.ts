/**
 * A symbolic link at the top of a folder of spaces that leads outside it is
 * not a way out: `reactor-mcp-server` serving the extension over real HTTP
 * does not list it as a space, reads nothing through it, names it in
 * `list_spaces`' notes, and warns about it in its start-up log, before the
 * summary line.
 */
import { EventEmitter } from 'node:events';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type CommandDependencies, type RunningCommand } from '@reactor/host';
import { captureLogger } from '@reactor/host/testing';
import { createSpacesExtension } from '../src/index.js';
import { makeTempSpaces, type TempSpaces } from './tempSpaces.js';

let temp: TempSpaces;
let running: RunningCommand;
const logger = captureLogger();

beforeAll(async () => {
  temp = await makeTempSpaces();
  // The folder of spaces holds alpha, beta, and a link to a folder outside it holding secret.txt.
  await fs.symlink(temp.outside, path.join(temp.root, 'escape'));
  const deps: Partial<CommandDependencies> = {
    loadExtensions: () => Promise.resolve([createSpacesExtension({ roots: [temp.root] })] as never),
    createLogger: () => logger,
    signals: new EventEmitter() as unknown as CommandDependencies['signals'],
    exit: () => {},
    loadCatalog: () => Promise.resolve(undefined),
  };
  running = (await runCommand(['--host', '127.0.0.1', '--port', '0'], {}, deps))!;
});
afterAll(async () => {
  await running.close();
  await temp.cleanup();
});

/** One stateless 2026-07-28 request over HTTP; answers the JSON-RPC result or error. */
async function request(method: string, params: Record<string, unknown>, name?: string): Promise<{ result?: Record<string, unknown>; error?: { message: string } }> {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'links-test', version: '1.0.0' } };
  const response = await fetch(running.url!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  });
  const text = await response.text();
  const data = (response.headers.get('content-type') ?? '').includes('text/event-stream') ? text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).at(-1) : text;
  return JSON.parse(data ?? '{}') as { result?: Record<string, unknown>; error?: { message: string } };
}

const callTool = async (name: string, args: Record<string, unknown>) =>
  (await request('tools/call', { name, arguments: args }, name)).result as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };

describe('a top-level link leading outside the folder of spaces', () => {
  it('is not listed as a space; list_spaces names it in its notes', async () => {
    const listed = (await callTool('list_spaces', {})).structuredContent as { spaces: Array<{ name: string }>; notes?: string[] };
    expect(listed.spaces.map((s) => s.name)).toEqual(['alpha', 'beta']);
    expect(listed.notes).toEqual(['refused "escape": a symbolic link leading outside its folder of spaces; only folders inside it are served']);
  });

  it('cannot be read through, by a tool or as a resource', async () => {
    for (const [tool, args] of [
      ['read_file', { space: 'escape', path: 'secret.txt' }],
      ['list_files', { space: 'escape' }],
      ['search_text', { space: 'escape', query: 'SECRET' }],
    ] as const) {
      const result = await callTool(tool, args);
      expect(result.isError, tool).toBe(true);
      expect(result.content[0]?.text, tool).toMatch(/^space "escape": not found; expected one of: alpha, beta/);
    }
    const found = (await callTool('find_notebooks', { query: 'secret' })).structuredContent as { notebooks: unknown[] };
    expect(found.notebooks).toEqual([]);
    const resource = await request('resources/read', { uri: 'spaces://escape/secret.txt' }, 'spaces://escape/secret.txt');
    expect(resource.result).toBeUndefined();
    expect(resource.error?.message).toMatch(/space "escape": not found/);
  });

  it('is reported in the start-up log, before the summary line', () => {
    const warning = logger.entries.findIndex((e) => e.level === 'warn' && e.msg?.includes('"escape"') === true);
    const summary = logger.entries.findIndex((e) => e.msg?.includes('serving 1 loaded') === true);
    expect(logger.entries[warning]).toMatchObject({
      fields: { extension: 'spaces', refused: [{ name: 'escape', root: temp.root, target: temp.outside }] },
      msg: `extension "spaces": refused 1 symbolic link(s) at the top of a folder of spaces, not served as spaces: "escape" (${temp.root}) → ${temp.outside}; hint: move the folder inside its folder of spaces, or serve it as a root of its own (name=/path/to/folder)`,
    });
    expect(summary).toBeGreaterThan(warning);
  });
});
