/**
 * docs/connecting-agents.md shows the interop suite's own code: each snippet
 * marked `<!-- interop: NAME -->` is, character for character, the
 * `// #region snippet` of test/clients/NAME.ts, which the suite runs against the
 * demo; the desktop clients' mcp-remote configuration passes the arguments the
 * suite spawns mcp-remote with, at the version it runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mcpRemoteArgs } from './clients/mcpRemote.js';
import { clientsRoot } from './clients/types.js';

const clientsDir = fileURLToPath(new URL('./clients/', import.meta.url));
const doc = readFileSync(fileURLToPath(new URL('../../../docs/connecting-agents.md', import.meta.url)), 'utf8');

/** The `// #region snippet` … `// #endregion snippet` of a client's file, or undefined. */
function region(file: string): string | undefined {
  const match = /^\/\/ #region snippet\n([\s\S]*?)^\/\/ #endregion snippet$/m.exec(readFileSync(join(clientsDir, file), 'utf8'));
  return match?.[1]?.trimEnd();
}

/** The code block after each `<!-- interop: NAME -->` marker. */
function docSnippets(): Map<string, string> {
  const snippets = new Map<string, string>();
  for (const match of doc.matchAll(/<!-- interop: (\w+) -->\n```\w+\n([\s\S]*?)\n```/g)) snippets.set(match[1]!, match[2]!);
  return snippets;
}

describe('docs/connecting-agents.md', () => {
  const regions = new Map(
    readdirSync(clientsDir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => {
        const code = region(f);
        return code === undefined ? [] : [[f.replace(/\.ts$/, ''), code] as const];
      }),
  );

  it('shows every client snippet the suite runs, and no other', () => {
    expect(regions.size).toBeGreaterThanOrEqual(7);
    expect([...docSnippets().keys()].toSorted()).toEqual([...regions.keys()].toSorted());
  });

  it('shows each snippet exactly as the suite runs it', () => {
    const snippets = docSnippets();
    for (const [name, code] of regions) expect(snippets.get(name), `the "${name}" snippet differs from test/clients/${name}.ts`).toBe(code);
  });

  it('configures desktop clients with mcp-remote as the suite spawns it, at the version it runs', () => {
    const match = /<!-- interop: mcp-remote config -->\n```json\n([\s\S]*?)\n```/.exec(doc);
    expect(match).not.toBeNull();
    const config = JSON.parse(match![1]!) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> };
    const server = Object.values(config.mcpServers)[0]!;
    const version = (JSON.parse(readFileSync(join(clientsRoot(), 'node_modules/mcp-remote/package.json'), 'utf8')) as { version: string }).version;
    expect(server.command).toBe('npx');
    expect(server.args.slice(0, 2)).toEqual(['-y', `mcp-remote@${version}`]);
    expect(server.args.slice(2)).toEqual(mcpRemoteArgs(server.args[2]!, { Authorization: '${AUTH_HEADER}' }));
    expect(server.env['AUTH_HEADER']).toMatch(/^Bearer /);
  });
});
