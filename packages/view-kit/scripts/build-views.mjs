#!/usr/bin/env node
// reactor-build-views: builds the MCP Apps views of the extension it runs in (the
// current directory, as a package script runs): each views/<name>.ts (with
// views/<name>.css beside it) bundled by esbuild into one self-contained
// dist/views/<name>.html — scripts and styles inlined (this kit's view runtime and
// CSS too), nothing fetched from elsewhere. Prints each view's size.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = process.cwd();
const source = join(root, 'views');
const out = join(root, 'dist', 'views');

// The SDK packages ext-apps' App imports do not declare themselves free of side
// effects, so esbuild would keep all of them (~600 KB); they are (ESM, no global
// writes), and zod's locale table is reduced to English, the one the App uses.
const lean = {
  name: 'lean',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'lean') return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'lean' });
      if (resolved.errors.length > 0) return resolved;
      const pure = /node_modules[\\/](@modelcontextprotocol[\\/](client|core|ext-apps)|zod)[\\/]/.test(resolved.path);
      return pure ? { ...resolved, sideEffects: false } : resolved;
    });
    b.onLoad({ filter: /zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: "export { default as en } from './en.js';", loader: 'js' }));
  },
};

// A first-party view fetches nothing (it declares no csp origins): it says so itself, so a client that
// renders it with a laxer policy than the spec asks for still gets none of its requests out.
const VIEW_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'";

const common = { bundle: true, minify: true, write: false, target: 'es2022', logLevel: 'silent', legalComments: 'none' };

mkdirSync(out, { recursive: true });
for (const file of readdirSync(source).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('_'))) {
  const name = file.slice(0, -3);
  const js = (await build({ ...common, entryPoints: [join(source, file)], format: 'iife', platform: 'browser', plugins: [lean] })).outputFiles[0].text;
  const cssFile = join(source, `${name}.css`);
  const css = existsSync(cssFile) ? (await build({ ...common, entryPoints: [cssFile], loader: { '.css': 'css' } })).outputFiles[0].text : '';
  const title = /@title\s+(.+)/.exec(readFileSync(join(source, file), 'utf8'))?.[1]?.trim() ?? name;
  // `</script` inside the bundle would end the element early: escape it (valid in strings and regexes alike).
  const script = js.replace(/<\/(script)/gi, '<\\/$1');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark"><title>${title}</title><style>${css}</style></head><body><main id="app" aria-live="polite"></main><script>${script}</script></body></html>\n`;
  writeFileSync(join(out, `${name}.html`), html);
  process.stdout.write(`views: ${name}.html ${Buffer.byteLength(html)} bytes\n`);
}
