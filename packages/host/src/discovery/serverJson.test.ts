/**
 * `server.json` for the official MCP registry, validated against the
 * registry's published schema (vendored in test/schemas with its source):
 * from package.json and the declared toolsets, an npm package run over stdio
 * and a remote whose URL takes the selection as a variable. Also through the
 * command: `reactor-mcp-server server-json` on a real application directory.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { defineExtension, runCommand, silentLogger } from '../index.js';
import { serverJson, SERVER_JSON_SCHEMA } from './serverJson.js';

function registryValidator() {
  const schema = JSON.parse(readFileSync(new URL('../../test/schemas/server.schema.json', import.meta.url), 'utf8')) as { $id: string };
  expect(schema.$id).toBe(SERVER_JSON_SCHEMA);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

const toolsets = [
  { name: 'spaces', title: 'Spaces', description: 'Folders of work.' },
  { name: 'benchmarks', description: 'Evaluation runs.', default: false },
];
const pkg = {
  name: '@acme/mcp',
  version: '1.4.0',
  description: 'Acme notebooks and benchmarks over MCP.',
  mcpName: 'io.github.acme/mcp',
  homepage: 'https://acme.dev/mcp',
  repository: { type: 'git', url: 'git+https://github.com/acme/mcp.git', directory: 'apps/server' },
};

describe('serverJson', () => {
  it('is valid against the registry schema, with the npm package, a remote and the toolsets', () => {
    const json = serverJson({ pkg, toolsets, remoteUrl: 'https://mcp.acme.dev/mcp', remoteAuth: true });
    const validate = registryValidator();
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json).toMatchObject({
      $schema: SERVER_JSON_SCHEMA,
      name: 'io.github.acme/mcp',
      version: '1.4.0',
      repository: { url: 'https://github.com/acme/mcp', source: 'github', subfolder: 'apps/server' },
      websiteUrl: 'https://acme.dev/mcp',
      packages: [{ registryType: 'npm', identifier: '@acme/mcp', version: '1.4.0', transport: { type: 'stdio' } }],
      remotes: [{ type: 'streamable-http', url: 'https://mcp.acme.dev/mcp/{toolsets}', variables: { toolsets: { default: '' } } }],
    });
    const meta = (json['_meta'] as Record<string, { toolsets: unknown[] }>)['io.modelcontextprotocol.registry/publisher-provided']!;
    expect(meta.toolsets).toEqual([
      { name: 'spaces', title: 'Spaces', description: 'Folders of work.', default: true, always: false },
      { name: 'benchmarks', description: 'Evaluation runs.', default: false, always: false },
    ]);
    expect(JSON.stringify(json)).toContain('benchmarks (opt-in)');
  });

  it('lists no npm package for a private application, and still validates', () => {
    const json = serverJson({ pkg: { ...pkg, private: true }, toolsets, remoteUrl: 'https://mcp.acme.dev/mcp' });
    expect(json).not.toHaveProperty('packages');
    expect(registryValidator()(json)).toBe(true);
  });

  it('says what is missing: a registry name, a description', () => {
    expect(() => serverJson({ pkg: { ...pkg, mcpName: undefined }, toolsets })).toThrow(/mcpName/);
    expect(() => serverJson({ pkg: { ...pkg, mcpName: 'not a name' }, toolsets })).toThrow(/reverse-DNS/);
    expect(() => serverJson({ pkg: { ...pkg, description: '' }, toolsets })).toThrow(/description/);
  });

  it('is what `reactor-mcp-server server-json` prints for an application', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reactor-server-json-'));
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
      const printed: string[] = [];
      const spaces = defineExtension({ manifest: { name: 'spaces', version: '1.0.0' }, toolsets: () => toolsets });
      const result = await runCommand(['server-json', '--remote-url', 'https://mcp.acme.dev/mcp'], {}, {
        root: dir,
        loadExtensions: () => Promise.resolve([spaces] as never),
        createLogger: () => silentLogger,
        stdout: (text) => void printed.push(text),
      });
      expect(result).toBeUndefined();
      const json = JSON.parse(printed.join('')) as Record<string, unknown>;
      expect(registryValidator()(json)).toBe(true);
      expect(json['name']).toBe('io.github.acme/mcp');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
