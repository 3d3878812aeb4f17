/**
 * The command's access log is written asynchronously (pino's sonic-boom
 * destination: a request never waits on a write of its line), and none of it
 * is lost when the process ends: run as a service manager runs it — stderr
 * appended to a file — put under load by real 2026-07-28 clients, then
 * stopped by SIGTERM, or by a fatal error (an exception nothing caught), the
 * file holds one access line for every call a client saw answered.
 *
 * The command runs from this package's sources, transpiled into a temporary
 * directory (no build step, so it cannot race the build other tests run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, watch } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, textOf, type TestClient } from './helpers/http.js';
import { transpileForChild, type Transpiled } from './helpers/transpile.js';
import { layoutApp, type FixtureApp } from './fixtures/packages.js';
import { HOST_VERSION } from '../src/kernel/version.js';

/** A fixture extension: `quick` answers at once; `crash` throws where nothing catches it (a fatal error). */
const EXTENSION = `export default {
  manifest: { name: 'steady', version: '1.0.0' },
  tools() {
    return [
      { name: 'quick', description: 'Answers at once.', handler: () => 'quick ok' },
      { name: 'crash', description: 'Throws outside any request.', handler: () => { setImmediate(() => { throw new Error('boom outside any request'); }); return 'crashing'; } },
    ];
  },
};
`;

/** A secret a client sends; it must never reach the log. */
const SECRET = 'Bearer sk-live-do-not-log-4f1c';

interface Command {
  readonly process: ChildProcess;
  readonly exited: Promise<number | null>;
  readonly logFile: string;
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

/** Waits until the file holds a line matching `match` (on the file's change events); rejects if the command exits first. */
async function lineIn(command: Command, match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const watcher = watch(command.logFile);
    let settled = false;
    const settle = (error: Error | undefined, line?: Record<string, unknown>) => {
      if (settled) return;
      settled = true;
      watcher.close();
      if (error) reject(error);
      else resolve(line!);
    };
    const check = () =>
      void readFile(command.logFile, 'utf8').then((text) => {
        const line = jsonLines(text).find(match);
        if (line) settle(undefined, line);
      });
    watcher.on('change', check);
    void command.exited.then(async (code) => settle(new Error(`the command exited (${code}) first; its stderr:\n${await readFile(command.logFile, 'utf8')}`)));
    check();
  });
}

/** The SIGTERM test's server name (`--name`): every line carries it, as UTF-8. */
const NAME = 'réacteur-☕-東京';

/** A quick call's access line. */
const isQuickCall = (l: Record<string, unknown>) => l.target === '/mcp' && l.mcpMethod === 'tools/call' && l.mcpName === 'quick';

describe('the access log when the command ends (stderr to a file, under load)', () => {
  let transpiled: Transpiled;
  let app: FixtureApp;
  const commands: Command[] = [];
  const clients: TestClient[] = [];

  beforeAll(async () => {
    transpiled = await transpileForChild();
    // The helper's package.json says only "type"; the host reads its version from it (serverInfo.version).
    await writeFile(transpiled.path('package.json'), `${JSON.stringify({ name: '@reactor/host', version: HOST_VERSION, type: 'module' })}\n`);
    app = await layoutApp('pnpm', [{ name: 'ext-steady', reactorMcp: { extensions: { steady: './index.js' } }, files: { 'index.js': EXTENSION } }]);
  }, 60_000);
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    for (const command of commands.splice(0)) {
      if (command.process.exitCode === null && command.process.signalCode === null) {
        command.process.kill('SIGKILL');
        await command.exited;
      }
    }
  });
  afterAll(async () => {
    await app?.remove();
    await transpiled?.remove();
  });

  /** Starts the command with its default log (json, info), stderr appended to a file; its URL. */
  async function start(name: string, args: readonly string[] = []): Promise<{ command: Command; url: URL }> {
    const logFile = app.scratch(`${name}.stderr.log`);
    await writeFile(logFile, '');
    const fd = openSync(logFile, 'a');
    const child = spawn(process.execPath, [transpiled.path('src/cli.js'), '--port', '0', '--node-id', 'replica-a', ...args], { cwd: app.root, env: { PATH: process.env.PATH }, stdio: ['ignore', 'ignore', fd] });
    closeSync(fd);
    const command: Command = { process: child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))), logFile };
    commands.push(command);
    const summary = await lineIn(command, (l) => typeof l.msg === 'string' && l.msg.includes('serving') && typeof l.url === 'string');
    return { command, url: new URL(summary.url as string) };
  }

  /** Calls `quick` from `count` clients at once, each in a loop, until `stop()` says so or a call fails; the calls answered. */
  async function load(url: URL, count: number, stop: (answered: number) => boolean): Promise<number> {
    const connected = await Promise.all(Array.from({ length: count }, () => connectClient('v2 client, 2026-07-28 protocol', url, { authorization: SECRET })));
    clients.push(...connected);
    let answered = 0;
    await Promise.all(
      connected.map(async (client) => {
        while (!stop(answered)) {
          let text: string;
          try {
            text = textOf(await client.callTool('quick'));
          } catch {
            return; // refused or reset: the command is going away
          }
          expect(text).toBe('quick ok');
          answered++;
        }
      }),
    );
    return answered;
  }

  it('SIGTERM under load: exits 0 with one access line per call answered, each carrying what it always did and no secret', async () => {
    // A name of multi-byte characters, bound into every line: the lines reach the file as bytes, in batches, each whole.
    const { command, url } = await start('sigterm', ['--name', NAME]);
    let signalled = false;
    const answered = await load(url, 16, (n) => {
      // The signal arrives while 16 calls are in flight; the clients go on until the command refuses them.
      if (n >= 400 && !signalled) {
        signalled = true;
        command.process.kill('SIGTERM');
      }
      return false;
    });
    expect(signalled).toBe(true);
    expect(await command.exited).toBe(0);
    const text = await readFile(command.logFile, 'utf8');
    const lines = jsonLines(text);
    const quick = lines.filter(isQuickCall);
    expect(answered).toBeGreaterThanOrEqual(400);
    expect(quick.length).toBe(answered);
    expect(quick.every((l) => l.status === 200 && l.method === 'POST' && l.node === 'replica-a' && typeof l.durationMs === 'number' && l.level === 30)).toBe(true);
    // Shutdown's own lines come after the access lines of the calls it let finish, the last one last.
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });
    expect(text).not.toContain('sk-live-do-not-log');
    expect(lines.length).toBe(text.split('\n').filter((line) => line !== '').length);
    expect(lines.every((l) => l.name === NAME)).toBe(true);
  }, 120_000);

  it('a fatal error under load: logs it, writes out every access line before it, and exits 1', async () => {
    const { command, url } = await start('fatal');
    const answered = await load(url, 16, (n) => n >= 400);
    // Every call so far was answered; the crash comes before the log's periodic flush could write the last of them.
    const crashClient = await connectClient('v2 client, 2026-07-28 protocol', url);
    clients.push(crashClient);
    await crashClient.callTool('crash').catch(() => undefined);
    expect(await command.exited).toBe(1);
    const lines = jsonLines(await readFile(command.logFile, 'utf8'));
    expect(lines.filter(isQuickCall).length).toBe(answered);
    expect(lines.find((l) => l.fatal === true)).toMatchObject({ level: 50, msg: 'fatal error: boom outside any request; exiting', err: { message: 'boom outside any request' } });
  }, 120_000);
});
