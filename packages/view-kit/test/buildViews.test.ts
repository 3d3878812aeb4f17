/**
 * `reactor-build-views`, run as an extension's build runs it (in the
 * extension's folder): each views/<name>.ts becomes one self-contained
 * dist/views/<name>.html with this kit's runtime and CSS inlined, and nothing
 * that could end its <script> early or be fetched from elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/build-views.mjs', import.meta.url));
// Inside this package, so `@reactor/view-kit/view` and ext-apps resolve as they do from an extension.
const extension = mkdtempSync(join(fileURLToPath(new URL('..', import.meta.url)), '.test-ext-'));
afterAll(() => rmSync(extension, { recursive: true, force: true }));

it('bundles each view with the kit inlined into one HTML file, skipping _helpers', () => {
  mkdirSync(join(extension, 'views'));
  writeFileSync(
    join(extension, 'views', 'hello.ts'),
    "/**\n * @title Hello view\n */\nimport { h, startView } from '@reactor/view-kit/view';\nimport { note } from './_note.js';\nstartView('hello', (_result, _app) => document.getElementById('app')!.append(h('p', {}, note)));\n",
  );
  writeFileSync(join(extension, 'views', '_note.ts'), "export const note = 'a </script> inside a string';\n");
  writeFileSync(join(extension, 'views', 'hello.css'), "@import '@reactor/view-kit/view.css';\n.hello { color: var(--good); }\n");

  const out = execFileSync(process.execPath, [script], { cwd: extension, encoding: 'utf8' });

  expect(readdirSync(join(extension, 'dist', 'views'))).toEqual(['hello.html']);
  const html = readFileSync(join(extension, 'dist', 'views', 'hello.html'), 'utf8');
  expect(out).toBe(`views: hello.html ${Buffer.byteLength(html)} bytes\n`);
  expect(html.startsWith('<!doctype html>')).toBe(true);
  expect(html).toContain('<title>Hello view</title>');
  // The view says itself that it fetches nothing, whatever policy the client renders it under.
  expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*connect-src 'none'[^"]*">/);
  // The kit's CSS (its light/dark variables) and the view's own, in one <style>.
  expect(html).toMatch(/<style>[^<]*--good:[^<]*\.hello\{color:var\(--good\)\}[^<]*<\/style>/);
  // The kit's runtime is in the one script (its waiting text), and `</script` inside it is escaped.
  const scripts = html.match(/<script>[\s\S]*?<\/script>/g) ?? [];
  expect(scripts).toHaveLength(1);
  expect(scripts[0]).toContain('Waiting for the tool');
  expect(scripts[0]).toContain('<\\/script> inside a string');
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/i);
});
