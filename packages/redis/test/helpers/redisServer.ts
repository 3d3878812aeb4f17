/**
 * A real `redis-server` for one test file: started on a free loopback port
 * with persistence off, stopped after. It fails loudly when it cannot start —
 * these tests never skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** The `redis-server` binary (Debian's package puts it here; `REDIS_SERVER` overrides). */
export const REDIS_SERVER = process.env['REDIS_SERVER'] ?? '/usr/bin/redis-server';

/** A running Redis. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** A free loopback port (the OS picks it; closed again before it is returned). */
export async function freePort(): Promise<number> {
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

/** Starts `redis-server` (on `port`, else a free one); resolves once it accepts connections. */
export async function startRedis(port?: number): Promise<TestRedis> {
  port ??= await freePort();
  const child: ChildProcess = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('did not become ready within 10 s')), 10_000);
    function fail(error: Error) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`redis-server (${REDIS_SERVER}) could not start on 127.0.0.1:${port}: ${error.message}. Install Debian's redis-server (apt-get install redis-server) or set REDIS_SERVER.\n${output}`));
    }
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`exited with code ${String(code)}`)));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        // Nothing is persisted (--save '', no AOF), so nothing is lost; and SIGTERM can be
        // blocked in a signal mask inherited from the test runner's parent, SIGKILL cannot.
        child.kill('SIGKILL');
      }),
  };
}
