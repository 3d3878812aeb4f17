/**
 * Each client's snippet, parsed the way that client reads it (JSON, YAML, a
 * POSIX shell), and checked against the shape its documentation gives — with
 * and without auth. A URL with `&` and `,` must survive every form intact.
 */
import { parse as parseShell } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { clientSnippets, type ClientSnippet } from './clients.js';

const URL_WITH_SELECTION = 'http://127.0.0.1:4040/mcp?toolsets=benchmarks,library&without=spaces';
const open = { name: 'reactor-demo', url: URL_WITH_SELECTION, auth: false, tokenVariable: 'REACTOR_MCP_TOKEN' };
const guarded = { ...open, url: 'https://mcp.example.com/mcp?benchmarks', auth: true };

function snippet(list: ClientSnippet[], id: ClientSnippet['id']): ClientSnippet {
  const found = list.find((s) => s.id === id);
  if (!found) throw new Error(`no snippet for ${id}`);
  return found;
}

describe('client snippets', () => {
  it('covers the eight clients, in a fixed order', () => {
    expect(clientSnippets(open).map((s) => s.id)).toEqual(['claude-code', 'claude-desktop', 'vscode', 'cursor', 'windsurf', 'zed', 'goose', 'continue']);
  });

  it('Claude Code: claude mcp add --transport http NAME URL, the URL one single-quoted word', () => {
    const text = snippet(clientSnippets(open), 'claude-code').text;
    expect(text).toBe(`claude mcp add --transport http reactor-demo '${URL_WITH_SELECTION}'`);
    expect(parseShell(text)).toEqual(['claude', 'mcp', 'add', '--transport', 'http', 'reactor-demo', URL_WITH_SELECTION]);
    const withAuth = snippet(clientSnippets(guarded), 'claude-code');
    expect(parseShell(withAuth.text, { REACTOR_MCP_TOKEN: 'tok' })).toEqual(['claude', 'mcp', 'add', '--transport', 'http', 'reactor-demo', guarded.url, '--header', 'Authorization: Bearer tok']);
    expect(withAuth.token).toContain('REACTOR_MCP_TOKEN');
  });

  it('Claude Desktop: an mcpServers entry running npx mcp-remote, the token in env', () => {
    expect(JSON.parse(snippet(clientSnippets(open), 'claude-desktop').text)).toEqual({
      mcpServers: { 'reactor-demo': { command: 'npx', args: ['-y', 'mcp-remote', URL_WITH_SELECTION] } },
    });
    expect(JSON.parse(snippet(clientSnippets(guarded), 'claude-desktop').text)).toEqual({
      mcpServers: {
        'reactor-demo': {
          command: 'npx',
          args: ['-y', 'mcp-remote', guarded.url, '--header', 'Authorization:${AUTH_HEADER}'],
          env: { AUTH_HEADER: 'Bearer <your token>' },
        },
      },
    });
    const plain = JSON.parse(snippet(clientSnippets({ ...open, url: 'http://mcp.internal/mcp' }), 'claude-desktop').text) as { mcpServers: Record<string, { args: string[] }> };
    expect(plain.mcpServers['reactor-demo']!.args).toContain('--allow-http');
  });

  it('VS Code: servers.NAME of type http, a promptString input for the token, and an install link carrying the same server', () => {
    const vscode = snippet(clientSnippets(open), 'vscode');
    expect(JSON.parse(vscode.text)).toEqual({ servers: { 'reactor-demo': { type: 'http', url: URL_WITH_SELECTION } } });
    expect(vscode.link!.href.startsWith('vscode:mcp/install?')).toBe(true);
    expect(JSON.parse(decodeURIComponent(vscode.link!.href.slice('vscode:mcp/install?'.length)))).toEqual({ name: 'reactor-demo', type: 'http', url: URL_WITH_SELECTION });
    expect(JSON.parse(snippet(clientSnippets(guarded), 'vscode').text)).toEqual({
      servers: { 'reactor-demo': { type: 'http', url: guarded.url, headers: { Authorization: 'Bearer ${input:reactor-demo-token}' } } },
      inputs: [{ type: 'promptString', id: 'reactor-demo-token', description: 'Token for reactor-demo', password: true }],
    });
  });

  it('Cursor: mcpServers.NAME with url, and a deep link whose base64 config is that same entry', () => {
    for (const input of [open, guarded]) {
      const cursor = snippet(clientSnippets(input), 'cursor');
      const entry = (JSON.parse(cursor.text) as { mcpServers: Record<string, unknown> }).mcpServers['reactor-demo'];
      expect(entry).toEqual(input.auth ? { url: input.url, headers: { Authorization: 'Bearer ${env:REACTOR_MCP_TOKEN}' } } : { url: input.url });
      const link = new URL(cursor.link!.href);
      expect(`${link.protocol}//${link.host}${link.pathname}`).toBe('cursor://anysphere.cursor-deeplink/mcp/install');
      expect(link.searchParams.get('name')).toBe('reactor-demo');
      expect(JSON.parse(Buffer.from(link.searchParams.get('config')!, 'base64').toString('utf8'))).toEqual(entry);
    }
  });

  it('Windsurf: serverUrl (not url), the token from the environment', () => {
    expect(JSON.parse(snippet(clientSnippets(open), 'windsurf').text)).toEqual({ mcpServers: { 'reactor-demo': { serverUrl: URL_WITH_SELECTION } } });
    expect(JSON.parse(snippet(clientSnippets(guarded), 'windsurf').text)).toEqual({
      mcpServers: { 'reactor-demo': { serverUrl: guarded.url, headers: { Authorization: 'Bearer ${env:REACTOR_MCP_TOKEN}' } } },
    });
  });

  it('Zed: context_servers.NAME with url and headers', () => {
    expect(JSON.parse(snippet(clientSnippets(open), 'zed').text)).toEqual({ context_servers: { 'reactor-demo': { url: URL_WITH_SELECTION } } });
    expect(JSON.parse(snippet(clientSnippets(guarded), 'zed').text)).toEqual({
      context_servers: { 'reactor-demo': { url: guarded.url, headers: { Authorization: 'Bearer <your token>' } } },
    });
  });

  it('Goose: an extensions entry of type streamable_http with uri, and a goose:// link naming the same URL', () => {
    const goose = snippet(clientSnippets(guarded), 'goose');
    expect(parseYaml(goose.text)).toEqual({
      extensions: {
        'reactor-demo': { enabled: true, type: 'streamable_http', name: 'reactor-demo', uri: guarded.url, timeout: 300, headers: { Authorization: 'Bearer <your token>' } },
      },
    });
    const link = new URL(snippet(clientSnippets(open), 'goose').link!.href);
    expect(link.protocol).toBe('goose:');
    expect(link.searchParams.get('url')).toBe(URL_WITH_SELECTION);
    expect(link.searchParams.get('type')).toBe('streamable_http');
  });

  it('Continue: a v1 block with one streamable-http server, headers under requestOptions', () => {
    expect(parseYaml(snippet(clientSnippets(open), 'continue').text)).toEqual({
      name: 'reactor-demo',
      version: '0.0.1',
      schema: 'v1',
      mcpServers: [{ name: 'reactor-demo', type: 'streamable-http', url: URL_WITH_SELECTION }],
    });
    const withAuth = parseYaml(snippet(clientSnippets(guarded), 'continue').text) as { mcpServers: Array<{ requestOptions: unknown }> };
    expect(withAuth.mcpServers[0]!.requestOptions).toEqual({ headers: { Authorization: 'Bearer ${{ secrets.REACTOR_MCP_TOKEN }}' } });
  });

  it('says where the token goes for every client when auth is on, and nothing when it is off', () => {
    expect(clientSnippets(guarded).every((s) => typeof s.token === 'string' && s.token.length > 0)).toBe(true);
    expect(clientSnippets(open).some((s) => s.token !== undefined)).toBe(false);
  });

  it('keeps a quote in the URL from breaking out of the shell word', () => {
    const url = "http://127.0.0.1:4040/mcp?x='; rm -rf ~ #";
    expect(parseShell(snippet(clientSnippets({ ...open, url }), 'claude-code').text).at(-1)).toBe(url);
  });
});
