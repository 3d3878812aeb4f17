/**
 * Graceful shutdown of the `reactor-mcp-server` command, run as a child
 * process the way a supervisor runs it: SIGTERM while calls are in flight —
 * one that finishes once the signal arrived (a 2025 session), one that hangs
 * until its time limit cuts it (a 2026-07-28 client) — lets both complete
 * within the grace period, refuses new work, runs `onStop`, and exits 0.
 *
 * The command runs from this package's sources, transpiled into a temporary
 * directory (no build step, so it cannot race the build other tests run).
 * The bound on the grace period itself (a request that never finishes) is
 * tested in-process in src/command/command.test.ts, with a 1 ms grace.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, textOf, type TestClient } from './helpers/http.js';
import { transpileForChild, type Transpiled } from './helpers/transpile.js';
import { layoutApp, type FixtureApp } from './fixtures/packages.js';
import { HOST_VERSION } from '../src/kernel/version.js';

/** A fixture extension (plain JavaScript, no imports from the host) whose tools tell stderr when they run. */
function slowExtensionSource(stopMarker: string): string {
  return `import fs from 'node:fs';
const note = (fields) => process.stderr.write(JSON.stringify({ fixture: true, ...fields }) + '\\n');
export default {
  manifest: { name: 'slow', version: '1.0.0' },
  tools() {
    return [
      {
        name: 'finish_after_sigterm',
        description: 'Answers once the process has received SIGTERM.',
        handler: () => new Promise((resolve) => {
          process.once('SIGTERM', () => setImmediate(() => resolve('finished after SIGTERM')));
          note({ started: 'finish_after_sigterm' });
        }),
      },
      {
        name: 'hang',
        description: 'Never answers; its time limit cuts it.',
        timeoutMs: 1000,
        handler: (_args, ctx) => new Promise(() => {
          ctx.signal.addEventListener('abort', () => note({ aborted: 'hang' }));
          note({ started: 'hang' });
        }),
      },
      { name: 'quick', description: 'Answers at once.', handler: () => 'quick ok' },
    ];
  },
  onStop() {
    fs.writeFileSync(${JSON.stringify(stopMarker)}, 'stopped');
    note({ stopped: 'slow' });
  },
};
`;
}

interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  readonly exited: Promise<number | null>;
  stdout: string;
  stderr: string;
  /** The first stderr JSON line that matches, waiting for it. */
  line(match: (fields: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Every stderr JSON line so far. */
  lines(): Array<Record<string, unknown>>;
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

function start(cli: string, cwd: string, args: string[]): Child {
  const child = spawn(process.execPath, [cli, ...args], { cwd, env: { PATH: process.env.PATH }, stdio: 'pipe' });
  const waiting: Array<{ match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void; reject: (e: Error) => void }> = [];
  const run: Child = {
    process: child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    lines: () => jsonLines(run.stderr),
    line: (match) =>
      new Promise((resolve, reject) => {
        const seen = run.lines().find(match);
        if (seen) resolve(seen);
        else waiting.push({ match, resolve, reject });
      }),
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (run.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    run.stderr += chunk;
    const lines = run.lines();
    for (const w of [...waiting]) {
      const found = lines.find(w.match);
      if (found) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(found);
      }
    }
  });
  void run.exited.then((code) => waiting.splice(0).forEach((w) => w.reject(new Error(`the command exited (${code}) first; stderr:\n${run.stderr}`))));
  return run;
}

describe('SIGTERM during in-flight calls (the command as a child process)', () => {
  let transpiled: Transpiled;
  let app: FixtureApp;
  const stopMarker = () => app.scratch('slow-stopped');
  const children: Child[] = [];
  const clients: TestClient[] = [];

  beforeAll(async () => {
    transpiled = await transpileForChild();
    // The helper's package.json says only "type"; the host reads its version from it (serverInfo.version).
    await writeFile(transpiled.path('package.json'), `${JSON.stringify({ name: '@reactor/host', version: HOST_VERSION, type: 'module' })}\n`);
    app = await layoutApp('pnpm', (scratch) => [
      { name: 'ext-slow', reactorMcp: { extensions: { slow: './index.js' } }, files: { 'index.js': slowExtensionSource(scratch('slow-stopped')) } },
    ]);
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const child of children) {
      if (child.process.exitCode === null) {
        child.process.kill('SIGKILL');
        await child.exited;
      }
    }
    await app.remove();
    await transpiled.remove();
  });

  it('lets both calls complete, refuses new work, runs onStop and exits 0', async () => {
    const child = start(transpiled.path('src/cli.js'), app.root, ['--port', '0', '--log-level', 'info']);
    children.push(child);
    const summary = await child.line((l) => typeof l.msg === 'string' && l.msg.includes('serving') && typeof l.url === 'string');
    const url = new URL(summary.url as string);

    const session = await connectClient('v2 client, 2025 protocol', url);
    const modern = await connectClient('v2 client, 2026-07-28 protocol', url);
    clients.push(session, modern);
    expect(textOf(await session.callTool('quick'))).toBe('quick ok');

    const finishing = session.callTool('finish_after_sigterm');
    const hanging = modern.callTool('hang');
    await child.line((l) => l.started === 'finish_after_sigterm');
    await child.line((l) => l.started === 'hang');

    child.process.kill('SIGTERM');
    expect(textOf(await finishing)).toBe('finished after SIGTERM');
    // The new connection is refused (the listener closed) or answered 503 (draining).
    const late = await fetch(new URL('/healthz', url)).then((r) => r.status, () => 'refused');
    expect([503, 'refused']).toContain(late);
    expect(await hanging).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Tool "hang" (extension "slow") timed out after 1000 ms; the call was aborted.' }] });

    expect(await child.exited).toBe(0);
    expect(existsSync(stopMarker())).toBe(true);
    expect(child.stdout).toBe('');
    const lines = child.lines();
    const at = (match: (l: Record<string, unknown>) => boolean) => lines.findIndex(match);
    // Both calls were in flight when the signal arrived; the hang was cut during the grace period; onStop ran last.
    expect(lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('letting'))).toMatchObject({ requests: 2 });
    expect(at((l) => l.signal === 'SIGTERM')).toBeLessThan(at((l) => l.aborted === 'hang'));
    expect(at((l) => l.aborted === 'hang')).toBeLessThan(at((l) => l.stopped === 'slow'));
    expect(at((l) => l.stopped === 'slow')).toBeLessThan(at((l) => l.msg === 'stopped'));
  });
});
