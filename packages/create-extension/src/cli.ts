#!/usr/bin/env node
/**
 * The bin behind `npm create @reactor/extension@latest [dir]`. Exit codes: 0
 * written, 1 could not write, 2 invalid flag or answer.
 */
import path from 'node:path';
import { ask, defaults, HELP, parseFlags, type ParsedFlags } from './options.js';
import { findReactorMonorepo, scaffold } from './scaffold.js';
import { HOST_VERSION } from './version.js';

const out = (text: string) => process.stdout.write(text);
let flags: ParsedFlags;
try {
  flags = parseFlags(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`create-extension: ${error instanceof Error ? error.message : String(error)}\nRun with --help for the options.\n`);
  process.exit(2);
}
if (flags.help) {
  out(HELP);
  process.exit(0);
}
const interactive = !flags.yes && process.stdin.isTTY === true;
const answers = interactive ? await ask(flags, process.stdin, process.stdout) : defaults(flags.answers, flags.dir);
const monorepo = flags.standalone ? undefined : findReactorMonorepo(process.cwd());
const dirName = flags.dir ?? answers.packageName.replace(/^@[^/]+\//, '');
const dir = monorepo === undefined ? path.resolve(dirName) : path.join(monorepo, 'extensions', path.basename(dirName));
try {
  const written = await scaffold(dir, { ...answers, hostVersion: HOST_VERSION, layout: monorepo === undefined ? 'standalone' : 'workspace' });
  const rel = path.relative(process.cwd(), written.dir) || '.';
  out(`Wrote ${answers.packageName} (extension "${answers.extensionName}", toolset "${answers.toolset}", ${answers.byDefault ? 'on by default' : 'opt-in'}) in ${rel}:\n`);
  for (const file of written.files) out(`  ${file}\n`);
  out(
    monorepo === undefined
      ? `\nNext:\n  cd ${rel}\n  npm install\n  npm test\n  npm run check     # reactor-mcp-server check\n`
      : `\nA workspace package of ${monorepo}. Next:\n  pnpm install\n  pnpm --filter ${answers.packageName} build\n  pnpm exec vitest run ${path.relative(monorepo, written.dir)}\n`,
  );
} catch (error) {
  process.stderr.write(`create-extension: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
