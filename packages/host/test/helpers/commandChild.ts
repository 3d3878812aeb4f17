/**
 * The `reactor-mcp-server` command as a child process, the way a supervisor
 * runs it, with its stderr JSON log lines to wait on (no sleeps).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** A running (or exited) command. */
export interface CommandChild {
  readonly process: ChildProcessWithoutNullStreams;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  readonly stdout: string;
  readonly stderr: string;
  /** The first stderr JSON line that matches, waiting for it; rejects if the command exits first. */
  line(match: (fields: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Waits for the next matching line logged after this call. */
  nextLine(match: (fields: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
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

/** Runs `node ...nodeArgs <cli> ...args` in `cwd` with only PATH and `env` in its environment. */
export function startCommand(cli: string, cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, nodeArgs: readonly string[] = []): CommandChild {
  const child = spawn(process.execPath, [...nodeArgs, cli, ...args], { cwd, env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  const waiting: Array<{ from: number; match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void; reject: (e: Error) => void }> = [];
  const find = (from: number, match: (l: Record<string, unknown>) => boolean) => jsonLines(stderr).slice(from).find(match);
  const wait = (from: number, match: (l: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = find(from, match);
      if (seen) resolve(seen);
      else if (child.exitCode !== null) reject(new Error(`the command had exited (${child.exitCode}); stderr:\n${stderr}`));
      else waiting.push({ from, match, resolve, reject });
    });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const w of [...waiting]) {
      const found = find(w.from, w.match);
      if (found) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(found);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then((code) => waiting.splice(0).forEach((w) => w.reject(new Error(`the command exited (${code}) first; stderr:\n${stderr}`))));
  return {
    process: child,
    exited,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    line: (match) => wait(0, match),
    nextLine: (match) => wait(jsonLines(stderr).length, match),
  };
}

/** Stops a child that is still running (SIGKILL) and waits for it. */
export async function killCommand(child: CommandChild): Promise<void> {
  if (child.process.exitCode === null && child.process.signalCode === null) {
    child.process.kill('SIGKILL');
    await child.exited;
  }
}
