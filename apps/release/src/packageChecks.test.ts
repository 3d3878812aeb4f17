import { describe, expect, it } from 'vitest';
import { packageProblems, type PackedPackage } from './packageChecks.js';

const REPO = 'git+https://github.com/example/reactor-mcp.git';

/** A package as a registry user expects it; each test breaks one thing. */
function goodPackage(overrides: { manifest?: Record<string, unknown>; files?: Record<string, string | undefined>; bytes?: number } = {}): PackedPackage {
  const manifest = {
    name: '@reactor/example',
    version: '1.0.0',
    description: 'An example.',
    license: 'MIT',
    repository: { type: 'git', url: REPO, directory: 'extensions/example' },
    homepage: 'https://github.com/example/reactor-mcp/tree/main/extensions/example#readme',
    bugs: { url: 'https://github.com/example/reactor-mcp/issues' },
    engines: { node: '>=20.19' },
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    bin: { example: './dist/cli.js' },
    publishConfig: { access: 'public' },
    peerDependencies: { '@reactor/host': '^1.0.0' },
    ...overrides.manifest,
  };
  const files: Record<string, string | undefined> = {
    'package.json': JSON.stringify(manifest),
    'README.md': '# example',
    LICENSE: 'MIT License',
    'CHANGELOG.md': '# @reactor/example',
    'dist/index.js': 'export {};\n//# sourceMappingURL=index.js.map',
    'dist/index.js.map': JSON.stringify({ version: 3, sources: ['../src/index.ts'], mappings: '' }),
    'dist/index.d.ts': 'export {};\n//# sourceMappingURL=index.d.ts.map',
    'dist/index.d.ts.map': JSON.stringify({ version: 3, sources: ['../src/index.ts'], mappings: '' }),
    'dist/cli.js': '#!/usr/bin/env node',
    'src/index.ts': 'export {};',
    ...overrides.files,
  };
  const present = Object.entries(files).filter((e): e is [string, string] => e[1] !== undefined);
  return { path: 'extensions/example', repositoryUrl: REPO, bytes: overrides.bytes ?? 10_000, budget: 20_000, files: new Map(present) };
}

describe('packageProblems: what a registry user expects of a published package', () => {
  it('finds nothing wrong with a complete package', () => {
    expect(packageProblems(goodPackage())).toEqual([]);
  });

  it('wants README, LICENSE and the CHANGELOG.md changesets writes', () => {
    const problems = packageProblems(goodPackage({ files: { 'README.md': undefined, LICENSE: undefined, 'CHANGELOG.md': undefined } }));
    expect(problems).toEqual([
      'README.md is missing from the tarball',
      'LICENSE is missing from the tarball',
      'CHANGELOG.md (written by `changeset version`; list it in "files") is missing from the tarball',
    ]);
  });

  it('wants repository (this repository, this directory), homepage, bugs and public access', () => {
    expect(packageProblems(goodPackage({ manifest: { repository: { type: 'git', url: REPO, directory: 'packages/other' } } }))).toEqual([
      'package.json "repository.directory" is "packages/other"; expected "extensions/example"',
    ]);
    expect(packageProblems(goodPackage({ manifest: { repository: { type: 'git', url: 'git+https://github.com/fork/x.git', directory: 'extensions/example' } } }))[0]).toContain('"repository.url"');
    const problems = packageProblems(goodPackage({ manifest: { homepage: undefined, bugs: undefined, publishConfig: {} } }));
    expect(problems).toEqual([
      'package.json "homepage" is missing',
      'package.json "bugs" is missing',
      'package.json "publishConfig.access" is not "public" (a scoped package is private by default)',
    ]);
  });

  it('wants engines.node to accept both Node lines the project supports', () => {
    expect(packageProblems(goodPackage({ manifest: { engines: { node: '>=22' } } }))).toEqual(['package.json "engines.node" is ">=22", which refuses Node 20.19.0']);
    expect(packageProblems(goodPackage({ manifest: { engines: undefined } }))).toEqual(['package.json "engines.node" is missing or not a semver range']);
  });

  it('wants every export typed and present, every bin present, and no workspace: range', () => {
    const problems = packageProblems(
      goodPackage({
        manifest: { exports: { '.': { default: './dist/index.js' }, './extra': { types: './dist/extra.d.ts', default: './dist/extra.js' } }, bin: './dist/missing.js', devDependencies: { '@reactor/host': 'workspace:^' } },
      }),
    );
    expect(problems).toEqual([
      'package.json still holds a "workspace:" range (publish with pnpm, which rewrites them)',
      'exports["."] has no "types" condition naming a .d.ts file',
      'exports["./extra"]["types"] points to ./dist/extra.d.ts, which is not in the tarball',
      'exports["./extra"]["default"] points to ./dist/extra.js, which is not in the tarball',
      'bin "@reactor/example" points to ./dist/missing.js, which is not in the tarball',
    ]);
  });

  it('refuses published tests and source maps that point to files left out', () => {
    const problems = packageProblems(goodPackage({ files: { 'src/index.ts': undefined, 'src/index.test.ts': 'test', 'test/e2e.ts': 'test', 'dist/gone.js': '//# sourceMappingURL=gone.js.map' } }));
    expect(problems).toEqual([
      'src/index.test.ts: a test file is published (leave tests out with "files")',
      'test/e2e.ts: a test file is published (leave tests out with "files")',
      'dist/index.js.map: its source ../src/index.ts (src/index.ts) is not in the tarball',
      'dist/index.d.ts.map: its source ../src/index.ts (src/index.ts) is not in the tarball',
      'dist/gone.js: its sourceMappingURL gone.js.map is not in the tarball',
    ]);
  });

  it('holds each tarball to its size budget', () => {
    expect(packageProblems(goodPackage({ bytes: 25_600 }))).toEqual(['the tarball is 25.0 KiB, over its budget of 19.5 KiB']);
  });
});
