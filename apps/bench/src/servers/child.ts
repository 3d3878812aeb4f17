/**
 * What every benchmark server process shares: it listens on 127.0.0.1 with a
 * free port, tells the driver the port over IPC, and answers the driver's
 * memory probes (after a full garbage collection; the driver starts it with
 * `--expose-gc`).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message a server process sends to the driver. */
export type ChildMessage =
  | { readonly type: 'ready'; readonly port: number; readonly detail?: Record<string, unknown> }
  | { readonly type: 'memory'; readonly rss: number; readonly heapUsed: number; readonly external: number; readonly arrayBuffers: number }
  /** The process's CPU time so far (user + system), microseconds. */
  | { readonly type: 'cpu'; readonly micros: number };

/** A message the driver sends to a server process. */
export type DriverMessage = { readonly type: 'memory' } | { readonly type: 'cpu' };

/** The tool count from argv (`--tools N`). */
export function argNumber(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, got ${process.argv[at + 1]}`);
  return value;
}

/** The value after `--name` in argv; throws when it is missing. */
export function argString(name: string): string {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? process.argv[at + 1] : undefined;
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}

/** True when argv carries `--flag`. */
export function argFlag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

async function collect(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  // Two passes and a turn of the loop between them: finalizers and weak maps settle.
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

/** Listens on 127.0.0.1:0 (unless `listening` already did), then reports ready and serves memory and CPU probes. */
export async function announce(server: Server, detail?: Record<string, unknown>): Promise<void> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.keepAliveTimeout = 60_000;
  process.on('message', (message: DriverMessage) => {
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      send({ type: 'cpu', micros: user + system });
      return;
    }
    if (message.type !== 'memory') return;
    void collect().then(() => {
      const m = process.memoryUsage();
      send({ type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers });
    });
  });
  // The driver ends us by closing the IPC channel (or by a signal).
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port: (server.address() as AddressInfo).port, ...(detail ? { detail } : {}) });
}
