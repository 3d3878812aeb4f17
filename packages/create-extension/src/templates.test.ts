import { describe, expect, it } from 'vitest';
import { packageFiles, type ScaffoldAnswers } from './templates.js';

const answers: ScaffoldAnswers = {
  packageName: '@acme/reactor-greetings',
  extensionName: 'greetings',
  toolset: 'greetings',
  byDefault: false,
  toolName: 'greetings_greet',
  description: 'Greet people from an MCP client.',
  hostVersion: '1.2.3',
  layout: 'standalone',
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a package.json read back for assertions
const pkg = (a: ScaffoldAnswers) => JSON.parse(packageFiles(a)["package.json"]!) as Record<string, any>;

describe('packageFiles', () => {
  it('writes a complete standalone package: sources, test, configs, README, changesets', () => {
    expect(Object.keys(packageFiles(answers)).sort()).toEqual([
      '.changeset/README.md', '.changeset/config.json', '.gitignore', 'README.md', 'eslint.config.js', 'package.json',
      'src/index.test.ts', 'src/index.ts', 'tsconfig.build.json', 'tsconfig.json', 'vitest.config.ts',
    ]);
  });

  it('holds an opt-in extension: its reactorMcp entry declares the activation event and its toolsets, as does its manifest', () => {
    const files = packageFiles(answers);
    expect(pkg(answers).reactorMcp).toEqual({
      extensions: {
        greetings: {
          module: './dist/index.js',
          activationEvents: ['onToolset:greetings'],
          toolsets: [{ name: 'greetings', title: 'Greetings', description: 'Greet people from an MCP client.', default: false }],
        },
      },
    });
    expect(files['src/index.ts']).toContain("manifest: { name: 'greetings', version: '0.1.0', activationEvents: ['onToolset:greetings'] }");
    expect(files['src/index.ts']).toContain("default: false }]");
  });

  it('does not hold an extension on by default', () => {
    const on = { ...answers, byDefault: true };
    expect(pkg(on).reactorMcp.extensions.greetings.activationEvents).toBeUndefined();
    expect(packageFiles(on)['src/index.ts']).toContain("manifest: { name: 'greetings', version: '0.1.0' }");
  });

  it('makes the host a peer on the current version, installed for development, and publishes with provenance', () => {
    const manifest = pkg({ ...answers, hostSpec: 'file:../host.tgz' });
    expect(manifest.peerDependencies).toEqual({ '@reactor/host': '^1.2.3' });
    expect(manifest.devDependencies['@reactor/host']).toBe('file:../host.tgz');
    expect(manifest.dependencies).toEqual({ zod: '^4.6.0' });
    expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
    expect(manifest.files).toEqual(['dist', '!dist/**/*.test.*', 'README.md']);
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
  });

  it('inside the monorepo, links the workspace host and leaves configs to the root', () => {
    const files = packageFiles({ ...answers, layout: 'workspace' });
    expect(Object.keys(files).sort()).toEqual(['README.md', 'package.json', 'src/index.test.ts', 'src/index.ts', 'tsconfig.build.json', 'tsconfig.json', 'vitest.config.ts']);
    const manifest = pkg({ ...answers, layout: 'workspace' });
    expect(manifest.devDependencies).toEqual({ '@reactor/host': 'workspace:^' });
    expect(manifest.exports['.']['@reactor/source']).toBe('./src/index.ts');
  });

  it('names the tool, its sample and its export consistently', () => {
    const files = packageFiles({ ...answers, toolName: 'say-hello' });
    expect(files['src/index.ts']).toContain("export const sayHello = defineTool({\n  name: 'say-hello',");
    expect(files['src/index.test.ts']).toContain("samples: { 'say-hello': { name: 'Ada' } }");
  });

  it('with view: true, gives the tool a view — its HTML and App script under views/, bundled into dist/views/ by esbuild at build', () => {
    const a = { ...answers, view: true };
    const files = packageFiles(a);
    expect(Object.keys(files).filter((f) => f.startsWith('views/') || f === 'build-views.js').sort()).toEqual(['build-views.js', 'views/greetings_greet.html', 'views/greetings_greet.ts', 'views/tsconfig.json']);
    expect(files['src/index.ts']).toContain("import { defineExtension, defineTool, defineView } from '@reactor/host';");
    expect(files['src/index.ts']).toContain("export const greetingsGreetView = defineView({\n  uri: 'ui://greetings/greetings-greet',");
    expect(files['src/index.ts']).toContain("html: new URL('../dist/views/greetings_greet.html', import.meta.url),");
    expect(files['src/index.ts']).toContain('  view: greetingsGreetView,\n');
    expect(files['views/greetings_greet.html']).toContain('<!-- view script -->');
    expect(files['views/greetings_greet.html']).not.toMatch(/<script|<link/);
    expect(files['views/greetings_greet.ts']).toContain("import { App, applyDocumentTheme } from '@modelcontextprotocol/ext-apps';");
    expect(files['src/index.test.ts']).toContain("readResource({ uri: 'ui://greetings/greetings-greet' })");
    const manifest = pkg(a);
    expect(manifest.scripts).toMatchObject({ build: 'tsc -p tsconfig.build.json && node build-views.js', test: 'node build-views.js && vitest run' });
    expect(manifest.devDependencies).toMatchObject({ '@modelcontextprotocol/ext-apps': '^2.0.4', esbuild: '^0.28.1' });
    // The bundled HTML ships in dist (already in files); the view's sources do not.
    expect(manifest.files).toEqual(['dist', '!dist/**/*.test.*', 'README.md']);
  });

  it('without a view, writes none of it', () => {
    const files = packageFiles(answers);
    expect(Object.keys(files).some((f) => f.startsWith('views/') || f === 'build-views.js')).toBe(false);
    expect(files['src/index.ts']).not.toContain('defineView');
    expect(pkg(answers).devDependencies).not.toHaveProperty('esbuild');
  });
});
