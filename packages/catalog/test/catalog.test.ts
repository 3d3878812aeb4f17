/**
 * The catalog page over real HTTP, served by `createMcpApp` with
 * `catalogOptions()`: toolsets with their tokens, tools with annotations and
 * provenance, a held extension listed and not woken, a strict CSP whose hashes
 * match the inline script and styles, `/toolsets` with the same token counts,
 * and with `auth.protectToolsets` the page needs a token too.
 */
import { createHash } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildHost, createMcpApp, defineExtension, defineTool, defineView, silentLogger, type DeferredExtension, type McpAppOptions, type ToolsetsBody } from '@reactor/host';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogOptions, TOKENIZER_NAME } from '../src/index.js';

const notes = defineExtension({
  manifest: { name: 'notes', version: '1.2.0' },
  toolsets: () => [{ name: 'notes', title: 'Notes', description: 'Read & <write> notes.' }],
  tools: () => [
    defineTool({
      name: 'read_note',
      title: 'Read a note',
      description: 'Read one note by its path.',
      annotations: { readOnlyHint: true, openWorldHint: false },
      view: defineView({ uri: 'ui://notes/note', html: '<!doctype html><p>a note</p>' }),
      handler: () => '',
    }),
    defineTool({ name: 'delete_note', description: 'Delete a note.', annotations: { readOnlyHint: false, destructiveHint: true }, handler: () => '' }),
  ],
});
const audit = defineExtension({
  manifest: { name: 'audit', version: '0.1.0' },
  toolExtensions: () => [['delete_note', { description: 'Delete a note (audited).', wrap: (original) => original }]],
});
let woken = false;
/** A held extension: listed from its manifest; importing it would set `woken`. */
const heldLab: DeferredExtension = {
  kind: 'deferred',
  manifest: { name: 'lab', version: '3.0.0', activationEvents: ['onToolset:lab'] },
  toolsets: [{ name: 'lab', title: 'Lab', description: 'Experiments.', default: false }],
  package: '@acme/lab@3.0.0',
  load: () => {
    woken = true;
    return Promise.resolve(
      defineExtension({
        manifest: { name: 'lab', version: '3.0.0', activationEvents: ['onToolset:lab'] },
        toolsets: () => [{ name: 'lab', title: 'Lab', description: 'Experiments.', default: false }],
        tools: () => [defineTool({ name: 'run_lab', description: 'Run.', handler: () => '' })],
        // Like benchmarks' extension of read_file: it applies only in builds that serve lab.
        toolExtensions: () => [['read_note', { when: 'active', description: 'Read one note by its path; a lab note also carries its experiment, its runs and their results, which run_lab writes.' }]],
      }),
    );
  },
};

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function serve(options: McpAppOptions = {}): Promise<string> {
  const host = await buildHost([notes, audit, heldLab], { logger: silentLogger, name: 'Catalog Test', toolsetsTool: true });
  const app = createMcpApp(host, { ...catalogOptions(), ...options });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await host.stop();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One GET over plain HTTP with exactly these request headers (fetch would add its own `Accept`). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the catalog page', () => {
  it('lists toolsets, tools, annotations and provenance, escaped, without waking the held extension', async () => {
    woken = false;
    const base = await serve();
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('Read &amp; &lt;write&gt; notes.');
    expect(html).not.toContain('<write>');
    expect(html).toMatch(/id="ts-notes"[^>]*checked/);
    expect(html).toMatch(/id="ts-lab"(?![^>]*checked)/);
    expect(html).toContain('held: loads on first use');
    expect(html).toContain('(npm @acme/lab@3.0.0)');
    expect(html).toContain('<li class="badge">read-only</li>');
    expect(html).toContain('<li class="badge warn">destructive</li>');
    expect(html).toContain('Delete a note (audited).');
    expect(html).toMatch(/Extended by <code>audit<\/code>/);
    expect(html).toContain(TOKENIZER_NAME);
    expect(html).toContain(`claude mcp add --transport http catalog-test &#39;${base}/mcp&#39;`);
    expect(woken).toBe(false);
  });

  it('says which tools have a view (MCP Apps), as /toolsets does', async () => {
    const base = await serve();
    const html = await (await fetch(`${base}/`)).text();
    const card = (name: string) => new RegExp(`<li class="tool"[^>]*>\\s*<h4>[^\\n]*<code>${name}</code></h4>[\\s\\S]*?</p>\\n</li>`).exec(html)?.[0] ?? '';
    expect(card('read_note')).toContain('Has a view: clients that render MCP Apps show <code>ui://notes/note</code>');
    expect(card('delete_note')).not.toContain('Has a view');
    const body = (await (await fetch(`${base}/toolsets?only=notes`)).json()) as ToolsetsBody;
    expect(body.provenance['read_note']?.view).toBe('ui://notes/note');
    expect(body.provenance['delete_note']).not.toHaveProperty('view');
  });

  it('shows the dynamic URL and what it costs up front against every toolset with a count, as /toolsets counts them', async () => {
    const base = await serve();
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain(`<code id="url-dynamic">${base}/mcp?dynamic&amp;only=</code>`);
    const figure = (id: string) => Number(new RegExp(`id="${id}">([\\d,]+)<`).exec(html)?.[1]?.replace(/,/g, ''));
    const dynamic = (await (await fetch(`${base}/toolsets?dynamic&only=`)).json()) as ToolsetsBody;
    const notes = (await (await fetch(`${base}/toolsets?only=notes`)).json()) as ToolsetsBody;
    expect(figure('dynamic-tokens')).toBe(dynamic.tokens!.total);
    expect([...dynamic.tools].sort()).toEqual(['enable_toolset', 'get_toolset_tools', 'list_available_toolsets', 'list_server_toolsets']);
    // Every toolset with a count (notes; lab is held) and the server's own list tool.
    expect(figure('dynamic-full-tokens')).toBe(notes.tokens!.total);
    // Two tools on offer cost less than the three that discover them: the page says a plain URL is cheaper.
    expect(figure('dynamic-tokens')).toBeGreaterThan(figure('dynamic-full-tokens'));
    expect(html).toContain('a plain URL costs less here');
  });

  it('sends a strict CSP that allows exactly its inline script and styles, and nothing from elsewhere', async () => {
    const base = await serve();
    const res = await fetch(`${base}/`);
    const csp = res.headers.get('content-security-policy')!;
    const html = await res.text();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const styles = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(csp).toContain(`script-src ${sha(script)}`);
    expect(csp).toContain(`style-src ${sha(styles)}`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(html).not.toMatch(/(src|href)="https?:\/\//);
    expect(html).not.toMatch(/ on[a-z]+="/);
  });

  it('opens with the selection in its own URL (/?lab wakes lab, as /toolsets?lab would)', async () => {
    woken = false;
    const base = await serve();
    const html = await (await fetch(`${base}/?lab`)).text();
    expect(woken).toBe(true);
    expect(html).toMatch(/id="ts-lab"[^>]*checked/);
    expect(html).toContain(`<code id="url-query">${base}/mcp?toolsets=lab</code>`);
    expect(html).toContain('<li>run_lab</li>');
  });

  it('shows the tools a narrowed URL serves: tools=, exclude_tools= and readonly, as /toolsets does', async () => {
    const base = await serve();
    const served = async (query: string) => {
      const html = await (await fetch(`${base}/${query}`)).text();
      const list = /id="served-tools" data-tools="([^"]*)"/.exec(html)?.[1];
      const body = (await (await fetch(`${base}/toolsets${query}`)).json()) as ToolsetsBody;
      expect(list?.split(',').filter(Boolean)).toEqual(body.tools);
      return list;
    };
    expect(await served('')).toContain('delete_note');
    expect(await served('?tools=read_note')).not.toContain('delete_note');
    expect(await served('?exclude_tools=read_note')).not.toContain('read_note');
    expect(await served('?readonly')).not.toContain('delete_note');
    expect(await served('?readonly')).toContain('read_note');
  });

  it('gives /toolsets the same token counts, per toolset and for the selection', async () => {
    const base = await serve();
    const body = (await (await fetch(`${base}/toolsets`)).json()) as ToolsetsBody;
    expect(body.tokens?.tokenizer).toBe(TOKENIZER_NAME);
    expect(body.tokens!.toolsets['notes']).toBe(body.tokens!.tools['read_note']! + body.tokens!.tools['delete_note']!);
    expect(body.tokens!.total).toBe(body.tokens!.toolsets['notes']! + body.tokens!.tools['list_server_toolsets']!);
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain(`<strong class="total" id="selection-tokens">${body.tokens!.total.toLocaleString('en-US')}</strong>`);
    expect(html).toContain(`data-toolset-tokens="notes">${body.tokens!.toolsets['notes']!.toLocaleString('en-US')} tokens`);
  });

  it('counts each toolset as the selection shown serves it: the lines add up to the total, whatever another request woke', async () => {
    const base = await serve();
    const count = (text: string | undefined) => (text === undefined ? undefined : Number(text.replace(/,/g, '')));
    const figures = async (query: string) => {
      const html = await (await fetch(`${base}/${query}`)).text();
      return {
        notes: count(/data-toolset-tokens="notes">([\d,]+) tokens/.exec(html)?.[1]),
        lab: count(/data-toolset-tokens="lab">([\d,]+) tokens/.exec(html)?.[1]),
        host: count(/data-host-tool-tokens="list_server_toolsets">([\d,]+) tokens/.exec(html)?.[1]),
        total: count(/id="selection-tokens">([\d,]+)</.exec(html)?.[1]),
        // The lines of the ticked toolsets (notes, and audit's toolset with no tools of its own).
        ticked: [...html.matchAll(/<input type="checkbox" id="ts-([a-z]+)"([^>]*)>[\s\S]*?data-toolset-tokens="\1">([\d,]+) tokens/g)]
          .filter((m) => m[2]!.includes(' checked'))
          .reduce((sum, m) => sum + count(m[3])!, 0),
        readNoteCard: /<li class="tool"[^>]*>\s*<h4>Read a note[\s\S]*?<p class="meta">[\s\S]*?<\/p>/.exec(html)?.[0],
      };
    };
    const first = await figures('');
    expect(first.lab).toBeUndefined(); // held: counted when loaded
    expect(first.host).toBeGreaterThan(0);
    expect(first.ticked).toBe(first.notes);
    expect(first.ticked + first.host!).toBe(first.total);

    // Another request wakes lab, whose extension of read_note applies only where lab is served.
    const withLab = (await (await fetch(`${base}/toolsets?lab`)).json()) as ToolsetsBody;
    expect(withLab.active).toContain('lab');
    expect(withLab.tokens!.toolsets['notes']).toBeGreaterThan(first.notes!);

    // The default view is counted as before; lab's line is what it costs beside notes.
    const second = await figures('');
    expect({ ...second, lab: undefined }).toEqual(first);
    expect(second.lab).toBe(withLab.tokens!.toolsets['lab']);
    expect(second.readNoteCard).toContain('Read one note by its path.');
    expect(second.readNoteCard).toContain('Not extended');

    // Opened with lab, the page counts notes with lab's extension, and the lines still add up.
    const labView = await figures('?lab');
    expect(labView.notes).toBe(withLab.tokens!.toolsets['notes']);
    expect(labView.ticked).toBe(labView.notes! + labView.lab!);
    expect(labView.ticked + labView.host!).toBe(labView.total);
    expect(labView.total).toBe(withLab.tokens!.total);
    expect(labView.readNoteCard).toMatch(/Extended by <code>lab<\/code>/);
  });

  it('needs a token when auth.protectToolsets is on, and then shows where the token goes', async () => {
    const base = await serve({
      auth: {
        protectToolsets: true,
        verifyAccessToken: (token) => (token === 'good' ? Promise.resolve({ token, clientId: 'c', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 600 }) : Promise.reject(new Error('bad token'))),
      },
    });
    const anonymous = await fetch(`${base}/`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const html = await (await fetch(`${base}/`, { headers: { authorization: 'Bearer good' } })).text();
    expect(html).toContain('This server wants a bearer token');
    expect(html).toContain('--header &quot;Authorization: Bearer $REACTOR_MCP_TOKEN&quot;');
  });

  it('behind auth, shows a browser a page on how to connect with a token (still 401, same WWW-Authenticate); JSON clients keep the JSON 401', async () => {
    const base = await serve({
      auth: {
        protectToolsets: true,
        resourceServerUrl: 'https://mcp.example.com/mcp',
        verifyAccessToken: (token) => (token === 'good' ? Promise.resolve({ token, clientId: 'c', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 600 }) : Promise.reject(new Error('bad token'))),
      },
    });
    // A client that asks for nothing in particular, and one that asks for JSON: the refusal as before.
    const plain = await rawGet(`${base}/`, {});
    const json = await rawGet(`${base}/`, { accept: 'application/json' });
    for (const refusal of [plain, json]) {
      expect(refusal.status).toBe(401);
      expect(refusal.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(refusal.body)).toMatchObject({ error: 'invalid_token' });
    }
    const challenge = plain.headers['www-authenticate'];
    expect(challenge).toMatch(/^Bearer .*resource_metadata=/);
    // A browser: the same status and challenge, and a page a person can act on.
    const page = await rawGet(`${base}/`, { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
    expect(page.status).toBe(401);
    expect(page.headers['www-authenticate']).toBe(challenge);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('This server wants a token');
    expect(page.body).toContain(`<code id="mcp-url">${base}/mcp</code>`);
    expect(page.body).toContain('<code id="auth-header">Authorization: Bearer &lt;your token&gt;</code>');
    expect(page.body).toContain(`claude mcp add --transport http catalog-test &#39;${base}/mcp&#39; --header &quot;Authorization: Bearer $REACTOR_MCP_TOKEN&quot;`);
    expect(page.body).not.toMatch(/<script/);
    // The catalog's CSP: its styles by hash, nothing else.
    const styles = /<style>([\s\S]*?)<\/style>/.exec(page.body)![1]!;
    expect(page.headers['content-security-policy']).toContain(`style-src ${sha(styles)}`);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    // With the token, the catalog itself.
    const authorized = await rawGet(`${base}/`, { accept: 'text/html', authorization: 'Bearer good' });
    expect(authorized.status).toBe(200);
    expect(authorized.body).toContain('Choose toolsets');
  });

  it('is not served at all without the catalog option', async () => {
    const base = await serve({ catalog: false });
    expect((await fetch(`${base}/`)).status).toBe(404);
  });
});
