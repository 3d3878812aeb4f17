/**
 * `pnpm start` as a user types it, from the repository root: pnpm 12 passes a
 * `--` on to the script, and the demo must still take the flags after it
 * (`pnpm start -- --port 5050`, as the README and docs/serving.md say). The
 * command runs in its own session (pnpm → sh → pnpm → sh → node; pnpm 12 gives
 * each script its own process group inside it), is stopped with SIGTERM to its
 * process group by PID (pnpm passes the signal on to the script it runs), and
 * every process of the session must be gone afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
/** The build that `pnpm start` runs first is usually cached; a cold one takes longer. */
const START_DEADLINE_MS = 120_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

/** The TCP ports that processes of session `sid` listen on (Linux /proc). */
function listeningPortsOfSession(sid: number): number[] {
  const listening = new Map<string, number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is "ADDR:PORT" in hex; state 0A is LISTEN; field 9 is the socket's inode.
      if (fields[3] !== '0A' || fields[1] === undefined || fields[9] === undefined) continue;
      listening.set(fields[9], Number.parseInt(fields[1].split(':')[1] ?? '', 16));
    }
  }
  const ports = new Set<number>();
  for (const pid of sessionMembers(sid)) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // the process has gone meanwhile
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const port = inode === undefined ? undefined : listening.get(inode);
      if (port !== undefined) ports.add(port);
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** The PIDs of the live processes in session `sid`. */
function sessionMembers(sid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp session …": comm may hold spaces, so read after its closing parenthesis.
    const [state, , , session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(session) === sid && state !== 'Z') members.push(Number(entry));
  }
  return members;
}

/** How long the demo may take to shut down after SIGTERM (its open requests' grace is bounded well below this). */
const SHUTDOWN_DEADLINE_MS = 20_000;

/** Resolves with the session's live processes once there are none, or with those left when the deadline passes. */
async function sessionEmptied(sid: number): Promise<number[]> {
  const deadline = Date.now() + SHUTDOWN_DEADLINE_MS;
  for (;;) {
    const left = sessionMembers(sid);
    if (left.length === 0 || Date.now() > deadline) return left;
    // No event tells this process when another's child exits: look again shortly.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A process's command line, for a failure message. */
function commandLine(pid: number): string {
  try {
    return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()}`;
  } catch {
    return String(pid);
  }
}

interface Started {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** Runs `pnpm <args>` from the repository root in its own session and process group, kernels off (no Jupyter needed). */
function pnpm(args: readonly string[]): Started {
  const child = spawn('pnpm', args, {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, REACTOR_JUPYTER: 'off', FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

/** Resolves when the demo logs that it serves at `url`; rejects, with what it printed, if it exits or the deadline passes first. */
function servingAt(started: Started, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`did not serve at ${url} within ${START_DEADLINE_MS / 1000} s`)), START_DEADLINE_MS);
    const onData = () => {
      if (started.output().includes(`at ${url}`)) finish();
    };
    function finish(error?: Error) {
      clearTimeout(timer);
      started.child.stdout!.off('data', onData);
      started.child.stderr!.off('data', onData);
      if (error) reject(new Error(`${error.message}; it printed:\n${started.output()}`));
      else resolve();
    }
    started.child.stdout!.on('data', onData);
    started.child.stderr!.on('data', onData);
    void started.exited.then(({ code, signal }) => finish(new Error(`exited (code ${String(code)}, signal ${String(signal)}) before serving`)));
    onData();
  });
}

/** SIGTERM to pnpm's process group (by pnpm's PID), then waits for pnpm's exit. */
async function stop(started: Started): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const pgid = started.child.pid!;
  if (started.child.exitCode === null && started.child.signalCode === null) {
    try {
      process.kill(-pgid, 'SIGTERM');
    } catch {
      // the group has gone already
    }
  }
  return started.exited;
}

describe.each([
  ['pnpm start -- --port <port>', (port: number) => ['start', '--', '--port', String(port)]],
  ['pnpm start --port <port>', (port: number) => ['start', '--port', String(port)]],
])('%s, run from the repository root', (_title, argsFor) => {
  it(
    'serves on that port (and not on 4040), then stops on SIGTERM',
    async () => {
      const port = await freePort();
      const started = pnpm(argsFor(port));
      const sid = started.child.pid!;
      try {
        await servingAt(started, `http://127.0.0.1:${port}/mcp`);
        const health = await fetch(`http://127.0.0.1:${port}/healthz`);
        expect(health.status).toBe(200);
        expect(((await health.json()) as { ok: boolean }).ok).toBe(true);
        const ports = listeningPortsOfSession(sid);
        expect(ports).toContain(port);
        expect(ports).not.toContain(4040);
      } catch (error) {
        await stop(started);
        throw error;
      }
      const exit = await stop(started);
      expect(exit.code === 0 || exit.signal === 'SIGTERM', `pnpm exited with ${JSON.stringify(exit)}:\n${started.output()}`).toBe(true);
      // The signal reached the whole group at once: pnpm may exit while the demo is still finishing its graceful
      // shutdown, so wait (bounded) for the session to empty rather than read it once.
      const left = await sessionEmptied(sid);
      for (const pid of left) process.kill(pid, 'SIGKILL'); // stop what the test started, even when it fails
      expect(left, `still running after SIGTERM: ${left.map(commandLine).join('; ')}`).toEqual([]);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    },
    START_DEADLINE_MS + 30_000,
  );
});
