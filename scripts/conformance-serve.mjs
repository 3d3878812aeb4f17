#!/usr/bin/env node
// `pnpm conformance:serve [port]`: builds @reactor/host and @reactor/ext-conformance
// (output on stderr), then serves the conformance extensions as `pnpm conformance`
// does — createMcpApp, the pass-through ToolExtension on every conformance tool,
// trigger tools wired to the host — and prints `listening <url>` on stdout once
// ready, so any runner can point a suite at it. Port 0 (the default) picks a free one.
// Stop it with SIGINT/SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.argv[2] ?? '0';
if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
  process.stderr.write(`conformance:serve: the port must be a number from 0 to 65535, got ${JSON.stringify(port)}\n`);
  process.exit(2);
}
const built = spawnSync('pnpm', ['--filter', '@reactor/host', '--filter', '@reactor/ext-conformance', 'build'], {
  cwd: ROOT,
  stdio: ['ignore', process.stderr, process.stderr],
});
if (built.status !== 0) {
  process.stderr.write(`conformance:serve: the build failed (${built.error?.message ?? `exit ${built.status}`})\n`);
  process.exit(1);
}
const server = spawn(process.execPath, [path.join(ROOT, 'extensions', 'conformance', 'scripts', 'serve.mjs'), port], {
  cwd: path.join(ROOT, 'apps', 'conformance-server'),
  stdio: ['ignore', 'inherit', 'inherit'],
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
