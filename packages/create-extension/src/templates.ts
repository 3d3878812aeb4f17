/**
 * The files of a new extension package, as text. Pure: given the answers, the
 * same files every time. Two layouts: `standalone` (its own tsconfig, eslint,
 * vitest and changesets, for a package in its own repository) and `workspace`
 * (a package inside the Reactor MCP monorepo, using the root's configs).
 */

/** What the scaffolder asked (or was told). */
export interface ScaffoldAnswers {
  /** npm package name: `@acme/reactor-sandboxes` or `reactor-greetings`. */
  readonly packageName: string;
  /** Kebab-case extension name: the key of `reactorMcp.extensions` and `manifest.name`. */
  readonly extensionName: string;
  /** The toolset its tool goes in. */
  readonly toolset: string;
  /** On by default (`true`), or opt-in (`false`): then the extension is held until a URL asks for its toolset. */
  readonly byDefault: boolean;
  /** The one tool's name (snake_case). */
  readonly toolName: string;
  /** One sentence: what the extension is for. */
  readonly description: string;
  /** The `@reactor/host` version the package is made for; its peer range is `^<version>`. */
  readonly hostVersion: string;
  /** How to install the host for development (default `^<hostVersion>`; a tarball path or `workspace:^`). */
  readonly hostSpec?: string;
  readonly layout: 'standalone' | 'workspace';
  /** Give the tool a view (MCP Apps): `views/<tool>.html` and `.ts`, bundled into `dist/views/` by `build-views.js` (esbuild). */
  readonly view?: boolean;
}

/** Versions of the tools a standalone package develops with (verified together with the host). */
export const TOOL_VERSIONS = {
  zod: '^4.6.0',
  '@modelcontextprotocol/client': '^2.4.0',
  typescript: '6.0.3',
  vitest: '^4.1.0',
  eslint: '^10.0.0',
  '@eslint/js': '^10.0.0',
  'typescript-eslint': '~8.74.0',
  'js-tiktoken': '^1.0.21',
  '@changesets/cli': '^2.31.1',
  '@types/node': '^20.19.0',
  '@modelcontextprotocol/ext-apps': '^2.0.4',
  esbuild: '^0.28.1',
} as const;

/** `greetings-tools` → `Greetings Tools`. */
export function titleCase(name: string): string {
  return name
    .split(/[-_.:]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** Every file of the package: path (relative, `/`-separated) → content. */
export function packageFiles(a: ScaffoldAnswers): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(packageJson(a), null, 2)}\n`,
    'src/index.ts': indexTs(a),
    'src/index.test.ts': indexTestTs(a),
    'README.md': readme(a),
  };
  if (a.view === true) Object.assign(files, viewFiles(a));
  if (a.layout === 'workspace') {
    files['tsconfig.json'] = json({ extends: '../../tsconfig.base.json', compilerOptions: { outDir: 'dist', noEmit: true }, include: ['src'] });
    files['tsconfig.build.json'] = json({ extends: '../../tsconfig.base.json', compilerOptions: { rootDir: 'src', outDir: 'dist', noEmit: false, customConditions: [] }, include: ['src'], exclude: ['src/**/*.test.ts'] });
    files['vitest.config.ts'] = `import { reactorProject } from '../../vitest.shared.js';\n\nexport default reactorProject(${JSON.stringify(a.packageName)});\n`;
    return files;
  }
  files['tsconfig.json'] = json({
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      skipLibCheck: true,
      declaration: true,
      sourceMap: true,
      rootDir: 'src',
      outDir: 'dist',
      types: ['node'],
    },
    include: ['src'],
  });
  files['tsconfig.build.json'] = json({ extends: './tsconfig.json', exclude: ['src/**/*.test.ts'] });
  files['vitest.config.ts'] = `import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { include: ['src/**/*.test.ts'] } });\n`;
  files['eslint.config.js'] = ESLINT_CONFIG;
  files['.gitignore'] = 'node_modules\ndist\n*.tgz\n';
  files['.changeset/config.json'] = json({ $schema: 'https://unpkg.com/@changesets/config@3/schema.json', changelog: '@changesets/cli/changelog', commit: false, access: 'public', baseBranch: 'main', updateInternalDependencies: 'patch', ignore: [] });
  files['.changeset/README.md'] = '# Changesets\n\nEvery change a user should know about carries a changeset: run `npm run changeset`, pick the bump\n(patch: fixes; minor: new tools or options; major: breaking), and say what changed. `npm run release`\nversions and publishes.\n';
  return files;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function packageJson(a: ScaffoldAnswers): Record<string, unknown> {
  const workspace = a.layout === 'workspace';
  const entry: Record<string, unknown> = { module: './dist/index.js' };
  const toolset = { name: a.toolset, title: titleCase(a.toolset), description: a.description, default: a.byDefault };
  // Opt-in: held until a URL asks for its toolset, listed meanwhile from these declarations without importing the module.
  if (!a.byDefault) entry.activationEvents = [`onToolset:${a.toolset}`];
  entry.toolsets = [toolset];
  const dev: Record<string, string> = workspace
    ? { '@reactor/host': 'workspace:^' }
    : {
        '@reactor/host': a.hostSpec ?? `^${a.hostVersion}`,
        // `@reactor/host/testing` connects a real SDK client: an optional peer of the host, so the package's tests bring it.
        '@modelcontextprotocol/client': TOOL_VERSIONS['@modelcontextprotocol/client'],
        '@changesets/cli': TOOL_VERSIONS['@changesets/cli'],
        '@eslint/js': TOOL_VERSIONS['@eslint/js'],
        '@types/node': TOOL_VERSIONS['@types/node'],
        eslint: TOOL_VERSIONS.eslint,
        'js-tiktoken': TOOL_VERSIONS['js-tiktoken'],
        typescript: TOOL_VERSIONS.typescript,
        'typescript-eslint': TOOL_VERSIONS['typescript-eslint'],
        vitest: TOOL_VERSIONS.vitest,
      };
  if (a.view === true) {
    // The view's script uses ext-apps' App; esbuild inlines it into one self-contained HTML file.
    Object.assign(dev, { '@modelcontextprotocol/ext-apps': TOOL_VERSIONS['@modelcontextprotocol/ext-apps'], esbuild: TOOL_VERSIONS.esbuild });
  }
  const views = a.view === true ? ' && node build-views.js' : '';
  return {
    name: a.packageName,
    version: '0.1.0',
    description: a.description,
    license: 'MIT',
    type: 'module',
    engines: { node: '>=20.19' },
    files: ['dist', '!dist/**/*.test.*', 'README.md'],
    exports: {
      '.': workspace ? { '@reactor/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' } : { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    scripts: workspace
      ? { build: `tsc -p tsconfig.build.json${views}`, typecheck: 'tsc -p tsconfig.json --noEmit' }
      : {
          build: `tsc -p tsconfig.build.json${views}`,
          typecheck: 'tsc --noEmit',
          test: a.view === true ? 'node build-views.js && vitest run' : 'vitest run',
          lint: 'eslint .',
          check: 'npm run build && reactor-mcp-server check',
          prepack: 'npm run build',
          changeset: 'changeset',
          release: 'npm run build && changeset publish',
        },
    reactorMcp: { extensions: { [a.extensionName]: entry } },
    peerDependencies: { '@reactor/host': `^${a.hostVersion}` },
    dependencies: { zod: TOOL_VERSIONS.zod },
    devDependencies: dev,
    keywords: ['mcp', 'reactor-mcp', 'mcp-server'],
    publishConfig: workspace ? { access: 'public' } : { access: 'public', provenance: true },
  };
}

function indexTs(a: ScaffoldAnswers): string {
  const manifest = a.byDefault
    ? `{ name: ${q(a.extensionName)}, version: '0.1.0' }`
    : `{ name: ${q(a.extensionName)}, version: '0.1.0', activationEvents: [${q(`onToolset:${a.toolset}`)}] }`;
  return `/**
 * ${a.packageName}: ${a.description}
 *
 * The extension offers one tool, ${a.toolName}, in the ${q(a.toolset)} toolset${a.byDefault ? ' (on by default)' : ` (opt-in: a client asks for it with ?${a.toolset}; until then the module is not even imported)`}.
 * package.json's "reactorMcp" field declares it, so a server finds it among its dependencies.
 */
import { z } from 'zod';
import { defineExtension, defineTool${a.view === true ? ', defineView' : ''} } from '@reactor/host';
${a.view === true ? viewDefinition(a) : ''}
/** Replace it with your own: the handler is an ordinary function, testable without a server. */
export const ${camel(a.toolName)} = defineTool({
  name: ${q(a.toolName)},
  title: ${q(titleCase(a.toolName))},
  description: 'Greet someone by name. Returns the greeting.',
  inputSchema: z.object({ name: z.string().min(1).describe('Who to greet') }),
  outputSchema: z.object({ greeting: z.string() }),
  // All four hints, so clients need not assume the worst.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },${a.view === true ? `\n  view: ${camel(a.toolName)}View,` : ''}
  handler: ({ name }) => ({ greeting: \`Hello, \${name}!\` }),
});

export default defineExtension({
  // Keep name and activationEvents equal to the reactorMcp field in package.json.
  manifest: ${manifest},
  toolsets: () => [{ name: ${q(a.toolset)}, title: ${q(titleCase(a.toolset))}, description: ${q(a.description)}, default: ${String(a.byDefault)} }],
  tools: () => [${camel(a.toolName)}],
});
`;
}

function indexTestTs(a: ScaffoldAnswers): string {
  return `import { describe, expect, it } from 'vitest';
import { buildHost, silentLogger } from '@reactor/host';
import { connect } from '@reactor/host/testing';
import { describeExtensionContract } from '@reactor/host/testing/vitest';
import extension, { ${camel(a.toolName)} } from './index.js';

// The standard battery: the checker finds no error, it lists without starting,
// starts and stops, every tool answers its sample input as its annotations say.
describeExtensionContract(extension, { samples: { ${q(a.toolName)}: { name: 'Ada' } } });

describe(${q(a.toolName)}, () => {
  it('greets by name (the handler alone, no server)', () => {
    // defineTool keeps the handler's own type: this one answers at once (an async handler would be awaited).
    expect(${camel(a.toolName)}.handler({ name: 'Ada' }, undefined as never)).toEqual({ greeting: 'Hello, Ada!' });
  });

  it('answers a real MCP client where its toolset is ${a.byDefault ? 'on (by default)' : 'asked for'}', async () => {
    const host = await buildHost([extension], { logger: silentLogger, strict: true });
    const connection = await connect(host, { selection: ${q(a.byDefault ? '' : a.toolset)} });
    try {
      expect(await connection.toolNames()).toContain(${q(a.toolName)});
      const result = await connection.callTool(${q(a.toolName)}, { name: 'Ada' });
      expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada!' });
    } finally {
      await connection.close();
      await host.stop();
    }
  });${a.view === true ? viewTest(a) : ''}
});
`;
}

function viewUri(a: ScaffoldAnswers): string {
  return `ui://${a.extensionName}/${a.toolName.replace(/_/g, '-')}`;
}

function viewDefinition(a: ScaffoldAnswers): string {
  return `
/**
 * The tool's view (MCP Apps): clients that render views show it with the result.
 * views/${a.toolName}.html and .ts are bundled (\`node build-views.js\`, part of build)
 * into dist/views/${a.toolName}.html, self-contained: this URL finds it from src/ and dist/ alike.
 */
export const ${camel(a.toolName)}View = defineView({
  uri: ${q(viewUri(a))},
  title: ${q(titleCase(a.toolName))},
  html: new URL('../dist/views/${a.toolName}.html', import.meta.url),
  prefersBorder: true,
});
`;
}

function viewTest(a: ScaffoldAnswers): string {
  return `

  it('serves its view with the tool, self-contained', async () => {
    const host = await buildHost([extension], { logger: silentLogger, strict: true });
    const connection = await connect(host, { selection: ${q(a.byDefault ? '' : a.toolset)} });
    try {
      const tool = (await connection.client.listTools()).tools.find((t) => t.name === ${q(a.toolName)});
      expect(tool?._meta?.ui).toEqual({ resourceUri: ${q(viewUri(a))} });
      const read = await connection.client.readResource({ uri: ${q(viewUri(a))} });
      expect(read.contents[0]?.mimeType).toBe('text/html;profile=mcp-app');
      const html = (read.contents[0] as { text: string }).text;
      expect(html).toContain('<script type="module">');
      expect(html).not.toMatch(/<script[^>]+src=/);
    } finally {
      await connection.close();
      await host.stop();
    }
  });`;
}

function viewFiles(a: ScaffoldAnswers): Record<string, string> {
  return {
    [`views/${a.toolName}.html`]: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${titleCase(a.toolName)}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 12px; }
  #greeting { font-size: 1.25rem; }
</style>
</head>
<body>
<main>
  <p id="greeting" role="status" aria-live="polite">Waiting for the tool's result…</p>
</main>
<!-- view script -->
</body>
</html>
`,
    [`views/${a.toolName}.ts`]: `/**
 * The view's script: ext-apps' App receives the tool's result from the client
 * (and the client's theme), and the page shows it. Bundled into the HTML by build-views.js.
 */
import { App, applyDocumentTheme } from '@modelcontextprotocol/ext-apps';

const greeting = document.getElementById('greeting')!;
const app = new App({ name: ${q(`${a.toolName} view`)}, version: '0.1.0' });

app.ontoolresult = (result) => {
  const content = result.structuredContent as { greeting?: string } | undefined;
  greeting.textContent = content?.greeting ?? 'The tool gave no greeting.';
};
app.onhostcontextchanged = (context) => {
  if (context.theme) applyDocumentTheme(context.theme);
};

await app.connect();
const theme = app.getHostContext()?.theme;
if (theme) applyDocumentTheme(theme);
`,
    'views/tsconfig.json': json({ extends: '../tsconfig.json', compilerOptions: { lib: ['ES2023', 'DOM'], types: [], rootDir: '.', noEmit: true }, include: ['.'] }),
    'build-views.js': `// Bundles each views/<name>.ts (ext-apps' App included) into its views/<name>.html,
// writing dist/views/<name>.html: one self-contained file, no CDN, so the view works offline
// and \`reactor-mcp-server check\` finds nothing it would fetch.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';

const MARK = '<!-- view script -->';
await mkdir('dist/views', { recursive: true });
for (const file of (await readdir('views')).filter((f) => f.endsWith('.html'))) {
  const name = file.slice(0, -'.html'.length);
  const { outputFiles } = await build({ entryPoints: [\`views/\${name}.ts\`], bundle: true, format: 'esm', minify: true, write: false, target: 'es2022' });
  const script = outputFiles[0].text.replaceAll('</script', '<\\\\/script');
  const html = await readFile(\`views/\${file}\`, 'utf8');
  if (!html.includes(MARK)) throw new Error(\`views/\${file} has no "\${MARK}" where its script goes\`);
  await writeFile(\`dist/views/\${file}\`, html.replace(MARK, () => \`<script type="module">\${script}</script>\`));
}
`,
  };
}

function readme(a: ScaffoldAnswers): string {
  const url = a.byDefault ? 'http://127.0.0.1:4040/mcp' : `http://127.0.0.1:4040/mcp?${a.toolset}`;
  const dev = a.layout === 'workspace' ? 'pnpm build && pnpm exec vitest run' : 'npm install && npm test';
  return `# ${a.packageName}

${a.description}

A [Reactor MCP](https://github.com/datalayer/reactor-mcp) extension: toolset \`${a.toolset}\`${a.byDefault ? ', on by default' : ', opt-in (a client asks for it with `?' + a.toolset + '`)'}, with the tool \`${a.toolName}\`.

## Use it

\`\`\`sh
npm install @reactor/host ${a.packageName}
npx reactor-mcp-server            # serves ${url}
\`\`\`

## Develop

\`\`\`sh
${dev}
${a.layout === 'workspace' ? '' : 'npm run lint\nnpm run check                     # reactor-mcp-server check: names, schemas, annotations, token cost\n'}\`\`\`

- \`src/index.ts\`: the extension and its tool; \`src/index.test.ts\`: its tests (\`@reactor/host/testing\`).
- \`package.json\` \`reactorMcp\`: how a server finds it without importing it. Keep it equal to the module's manifest and toolsets.
- \`@reactor/host\` is a peer dependency: the application installs the one host every extension shares.

## Release

${a.layout === 'workspace' ? 'Add a changeset at the repository root (`pnpm changeset`).' : 'Add a changeset for each change (`npm run changeset`), then `npm run release` versions and publishes with provenance (from CI with `id-token: write`).'}
`;
}

const q = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const camel = (snake: string) => snake.replace(/[-_.]+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/^[^a-zA-Z_$]/, '_$&');

const ESLINT_CONFIG = `// Type-aware typescript-eslint, as in the Reactor MCP repository.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['*.js', '*.ts'] }, tsconfigRootDir: import.meta.dirname } },
  },
  // Over stdio, stdout is the protocol: library code never writes to the console.
  { files: ['src/**/*.ts'], ignores: ['**/*.test.ts'], rules: { 'no-console': 'error' } },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
`;
