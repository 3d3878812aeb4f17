/**
 * Server processes: each server of the benchmark runs in its own child
 * process (started with `--expose-gc`), listening on 127.0.0.1 with a free
 * port. The driver talks to it over HTTP and asks it for memory figures over IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, DriverMessage } from '../servers/child.js';
import { runLoad, type Load, type LoadOptions, type LoadResult } from './load.js';

/** The server scripts, by name (files under `dist/servers/`). */
export type ServerScript = 'reactor' | 'sdkPerRequest' | 'sdkSession' | 'sdkPerSession' | 'fastmcp' | 'ceiling' | 'floor' | 'builds';

/** Memory of a server process. */
export interface MemoryReading {
  /** Resident set size from `/proc/<pid>/status` (VmRSS), bytes; `process.memoryUsage().rss` where /proc is missing. */
  readonly rss: number;
  /** V8 heap in use after a full collection, bytes. */
  readonly heapUsed: number;
}

/** A running server process. */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly origin: string;
  /** What the process told the driver about itself when it was ready (`announce`'s detail; empty when none). */
  readonly detail: Readonly<Record<string, unknown>>;
  /** Memory after a full garbage collection in the child. */
  memory(): Promise<MemoryReading>;
  /** The process's CPU time so far (user + system, all its threads), microseconds. */
  cpu(): Promise<number>;
  /** Ends the process and waits for it to exit. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

function vmRss(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Starts `script` with these arguments (and these Node flags, beside `--expose-gc`) and waits until it listens. */
export async function startServer(name: string, script: ServerScript, args: readonly string[], nodeFlags: readonly string[] = []): Promise<ServerProcess> {
  const file = fileURLToPath(new URL(`../servers/${script}.js`, import.meta.url));
  // BENCH_CHILD_ARGS adds Node flags to every server process (--cpu-prof, --trace-gc…).
  const extra = [...nodeFlags, ...(process.env.BENCH_CHILD_ARGS?.split(' ').filter(Boolean) ?? [])];
  const child: ChildProcess = fork(file, [...args], { execArgv: ['--expose-gc', ...extra], stdio: ['ignore', extra.length > 0 ? 'inherit' : 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ readonly port: number; readonly detail?: Record<string, unknown> }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server "${name}" did not start within ${START_TIMEOUT_MS} ms; its stderr: ${stderr}`)), START_TIMEOUT_MS);
    child.on('message', (message: ChildMessage) => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      resolve(message);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server "${name}" exited with code ${code} before it listened; its stderr: ${stderr}`));
    });
  });
  const pid = child.pid ?? 0;
  /** Asks the process over IPC and waits for its answer of the same type. */
  const probe = <T extends DriverMessage['type']>(type: T, what: string) =>
    new Promise<Extract<ChildMessage, { type: T }>>((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as Extract<ChildMessage, { type: T }>);
      };
      child.on('message', onMessage);
      if (!child.send({ type })) reject(new Error(`server "${name}" cannot be asked for ${what}`));
    });
  return {
    name,
    pid,
    origin: `http://127.0.0.1:${ready.port}`,
    detail: ready.detail ?? {},
    memory: async () => {
      const message = await probe('memory', 'its memory');
      return { rss: vmRss(pid) ?? message.rss, heapUsed: message.heapUsed };
    },
    cpu: async () => (await probe('cpu', 'its CPU time')).micros,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.disconnect?.();
        const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

/** A load run against `server`, read as requests per second and the server's CPU time per request answered. */
export interface MeasuredLoad extends LoadResult {
  /** The server process's CPU time (all threads) per request answered, microseconds. */
  readonly cpuMicros: number;
}

/** Runs `load` against `server` between two readings of its CPU time. */
export async function measuredLoad(server: ServerProcess, load: Load, options: LoadOptions): Promise<MeasuredLoad> {
  const before = await server.cpu();
  const { requests, seconds, rate } = await runLoad(load, options);
  return { requests, seconds, rate, cpuMicros: ((await server.cpu()) - before) / requests };
}
