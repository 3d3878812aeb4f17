/**
 * The command phase: `reactor-mcp-server` as a user deploys it — the built
 * command (`@reactor/host`'s `dist/cli.js`) run in an application whose one
 * installed package offers an extension of the catalogue's tools through its
 * `reactorMcp` field, with its defaults (the `info` access log), its stderr
 * appended to a file as a service manager does. Beside it: the same with
 * `--log-format pretty`, the same with `--redis-url` against a redis-server
 * this phase starts on a free port, and the ceiling (bare node:http) replaying
 * the command's own captured 2026-07-28 `tools/call` answer. Interleaved
 * rounds, 2026-07-28 `tools/call` over keep-alive; on the Redis side the
 * commands are counted (`INFO commandstats`) around each measured slice and
 * in an idle slice, to show that a `tools/call` touches Redis not at all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { closeSync, openSync, realpathSync, watch } from 'node:fs';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Target } from './load.js';
import { runLoad } from './load.js';
import { startServer } from './processes.js';
import { rotation } from './stats.js';

/** The scenarios of the phase. */
export const COMMAND_SCENARIOS = ['ceiling', 'defaults', 'pretty', 'redis'] as const;
export type CommandScenario = (typeof COMMAND_SCENARIOS)[number];

/** How the phase runs. */
export interface CommandPhaseOptions {
  readonly tools: number;
  readonly rounds: number;
  readonly sliceMs: number;
  readonly warmUpMs: number;
  readonly concurrency: number;
  readonly progress: (line: string) => void;
}

/** What the phase measured. */
export interface CommandPhaseResult {
  readonly tools: number;
  readonly concurrency: number;
  /** Requests per second, one figure per measured round. */
  readonly rates: Record<CommandScenario, number[]>;
  /** The server process's CPU time (user + system, all threads) per answered request, µs, one figure per measured round: less swayed by a loaded machine than a rate. */
  readonly cpu: Record<CommandScenario, number[]>;
  /** Bytes each command wrote to its stderr file over the whole phase. */
  readonly logBytes: Record<Exclude<CommandScenario, 'ceiling'>, number>;
  /** `os.loadavg()` when the phase started and when it ended. */
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  /** Redis commands (by name, `info` left out) during the measured `--redis-url` slices, and the requests they answered. */
  readonly redisDuringLoad: Readonly<Record<string, number>>;
  readonly redisLoadSeconds: number;
  readonly redisRequests: number;
  /** Redis commands (by name) during an idle slice of the same total length: the replica's background (its heartbeat). */
  readonly redisIdle: Readonly<Record<string, number>>;
  readonly redisIdleSeconds: number;
}

const START_TIMEOUT_MS = 30_000;
const benchDir = fileURLToPath(new URL('../../', import.meta.url));

/** `@reactor/host`'s directory (the workspace's, as the bench depends on it) and `@reactor/redis`'s beside it. */
function workspacePackages(): { host: string; redis: string; zod: string } {
  const require = createRequire(path.join(benchDir, 'package.json'));
  const hostEntry = realpathSync(require.resolve('@reactor/host'));
  const host = path.resolve(path.dirname(hostEntry), '..');
  return { host, redis: path.resolve(host, '..', 'redis'), zod: realpathSync(path.join(benchDir, 'node_modules', 'zod')) };
}

/** The extension module of the app's one package: the catalogue (the same tools, schemas and answers as `catalogue.ts`). */
function catalogueModule(tools: number): string {
  return `import { z } from 'zod';
const tools = Array.from({ length: ${tools} }, (_, i) => {
  const name = 'tool_' + i;
  return {
    name,
    description: 'Tool number ' + i + ': looks something up.',
    inputSchema: z.object({
      query: z.string().describe('What to look for.'),
      limit: z.number().int().min(1).max(100).optional().describe('At most this many results.'),
    }),
    handler: (args) => name + ': ' + args.query + ' ' + (args.limit ?? 10),
  };
});
export default {
  manifest: { name: 'catalogue', version: '1.0.0' },
  toolsets: () => [{ name: 'catalogue', description: 'The benchmark catalogue.' }],
  tools: () => tools,
};
`;
}

/** Lays out the application: one installed package (`bench-catalogue`) whose `reactorMcp` field offers the extension. */
async function layOutApp(tools: number, withRedis: string): Promise<string> {
  const { zod } = workspacePackages();
  const root = await mkdtemp(path.join(os.tmpdir(), 'reactor-bench-command-'));
  const pkg = path.join(root, 'node_modules', 'bench-catalogue');
  await mkdir(pkg, { recursive: true });
  await writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name: 'bench-catalogue', version: '1.0.0', type: 'module', peerDependencies: { '@reactor/host': '*' }, reactorMcp: { extensions: { catalogue: './index.js' } } }, null, 2));
  await writeFile(path.join(pkg, 'index.js'), catalogueModule(tools));
  // The package's own dependency, and the optional peer --redis-url loads from the app.
  await symlink(zod, path.join(root, 'node_modules', 'zod'), 'dir');
  await mkdir(path.join(root, 'node_modules', '@reactor'));
  await symlink(withRedis, path.join(root, 'node_modules', '@reactor', 'redis'), 'dir');
  await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: 'bench-app', version: '0.0.0', private: true, type: 'module', dependencies: { 'bench-catalogue': '^1.0.0', '@reactor/redis': '*' } }, null, 2));
  return root;
}

/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = 100;

/** A process's CPU time so far (user + system, all its threads), µs, from /proc/<pid>/stat. */
export function procCpuMicros(stat: string): number {
  // Fields after the command name (which may hold spaces) start at field 3 (state); utime is field 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
}

async function cpuOf(pid: number): Promise<number> {
  return procCpuMicros(await readFile(`/proc/${pid}/stat`, 'utf8'));
}

/** A running command, its stderr appended to `logFile`. */
interface CommandProcess {
  readonly pid: number;
  readonly origin: string;
  readonly logFile: string;
  stop(): Promise<void>;
}

/** Waits until `file` holds text matching `pattern` (on the file's change events), or the child exits, or the time is up. */
async function waitForText(file: string, pattern: RegExp, child: ChildProcess, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const watcher = watch(file);
    const done = (error: Error | undefined, match?: RegExpExecArray) => {
      watcher.close();
      clearTimeout(timer);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(match!);
    };
    const check = () =>
      void readFile(file, 'utf8').then((text) => {
        const match = pattern.exec(text);
        if (match) done(undefined, match);
      });
    const onExit = (code: number | null) => void readFile(file, 'utf8').then((text) => done(new Error(`${what} exited (${code}) before it was ready; its stderr:\n${text.slice(-3000)}`)));
    const timer = setTimeout(() => done(new Error(`${what} was not ready within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    child.once('exit', onExit);
    watcher.on('change', check);
    check();
  });
}

/** Starts the command in `root` with `args` (and `--port 0`), stderr appended to a file of its own. */
async function startCommand(name: string, root: string, args: readonly string[]): Promise<CommandProcess> {
  const { host } = workspacePackages();
  const logFile = path.join(root, `${name}.stderr.log`);
  await writeFile(logFile, '');
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(host, 'dist', 'cli.js'), '--port', '0', ...args], { cwd: root, env: { PATH: process.env.PATH }, stdio: ['ignore', 'ignore', fd] });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const [url] = await waitForText(logFile, /http:\/\/127\.0\.0\.1:\d+\/mcp/, child, `reactor-mcp-server (${name})`).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    pid: child.pid ?? 0,
    origin: new URL(url).origin,
    logFile,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

/** A free TCP port on 127.0.0.1 (listened on and let go). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One Redis command over a fresh connection (RESP), its reply as text (a bulk string's content, or a simple reply's line). */
async function redisCommand(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const eol = data.indexOf('\r\n');
      if (eol < 0) return;
      const head = data.subarray(0, eol).toString();
      if (head.startsWith('-')) return (socket.destroy(), reject(new Error(`redis: ${head.slice(1)}`)));
      if (!head.startsWith('$')) return (socket.destroy(), resolve(head.slice(1)));
      const length = Number(head.slice(1));
      if (data.length < eol + 2 + length) return;
      socket.destroy();
      resolve(data.subarray(eol + 2, eol + 2 + length).toString());
    });
    socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
  });
}

/** Commands run so far by name (`INFO commandstats`), the `info` this phase sends left out. */
export function parseCommandStats(info: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (match[1] !== 'info') counts[match[1]!] = Number(match[2]);
  }
  return counts;
}

/** `after − before`, by name, the zero ones left out. */
export function commandDelta(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [name, calls] of Object.entries(after)) {
    const d = calls - (before[name] ?? 0);
    if (d > 0) delta[name] = d;
  }
  return delta;
}

function addInto(total: Record<string, number>, delta: Readonly<Record<string, number>>): void {
  for (const [name, calls] of Object.entries(delta)) total[name] = (total[name] ?? 0) + calls;
}

/** Starts redis-server on a free port (no persistence); its port and a stop. */
async function startRedis(dir: string): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const logFile = path.join(dir, 'redis.log');
  await writeFile(logFile, '');
  const fd = openSync(logFile, 'a');
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  child.once('error', () => undefined);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForText(logFile, /Ready to accept connections/, child, `redis-server (port ${port}; is it installed?)`);
  return {
    port,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Runs the phase. */
export async function measureCommand(options: CommandPhaseOptions): Promise<CommandPhaseResult> {
  const loadBefore = os.loadavg();
  const { redis: redisPackage } = workspacePackages();
  await stat(path.join(redisPackage, 'dist')).catch(() => {
    throw new Error(`${redisPackage}/dist is missing: build @reactor/redis (pnpm --filter @reactor/redis build) for the --redis-url row`);
  });
  const root = await layOutApp(options.tools, redisPackage);
  const stops: Array<() => Promise<void>> = [];
  const targets: Target[] = [];
  try {
    const redis = await startRedis(root);
    stops.push(redis.stop);
    const commands = {
      defaults: await startCommand('defaults', root, []),
      pretty: await startCommand('pretty', root, ['--log-format', 'pretty']),
      // A --redis-url replica needs a key it shares with the others (task ids are signed with one derived from it).
      redis: await startCommand('redis', root, ['--redis-url', `redis://127.0.0.1:${redis.port}`, '--request-state-key', randomBytes(48).toString('base64url')]),
    };
    // Stopped first (SIGTERM: as a service manager stops them), Redis last.
    stops.unshift(...Object.values(commands).map((c) => c.stop));
    const ceiling = await startServer(`ceiling (${options.tools} tools, the command's answers)`, 'ceiling', ['--tools', String(options.tools), '--from', commands.defaults.origin]);
    stops.unshift(ceiling.stop);
    const origins: Record<CommandScenario, string> = { ceiling: ceiling.origin, defaults: commands.defaults.origin, pretty: commands.pretty.origin, redis: commands.redis.origin };
    const pids: Record<CommandScenario, number> = { ceiling: ceiling.pid, defaults: commands.defaults.pid, pretty: commands.pretty.pid, redis: commands.redis.pid };
    const targetOf = Object.fromEntries(
      COMMAND_SCENARIOS.map((s) => {
        const target = new Target(s, origins[s], options.concurrency);
        targets.push(target);
        return [s, target];
      }),
    ) as Record<CommandScenario, Target>;
    const rates = Object.fromEntries(COMMAND_SCENARIOS.map((s) => [s, [] as number[]])) as Record<CommandScenario, number[]>;
    const cpu = Object.fromEntries(COMMAND_SCENARIOS.map((s) => [s, [] as number[]])) as Record<CommandScenario, number[]>;
    const redisDuringLoad: Record<string, number> = {};
    let redisLoadSeconds = 0;
    let redisRequests = 0;
    const stats = async () => parseCommandStats(await redisCommand(redis.port, 'INFO', 'commandstats'));
    for (let round = 0; round <= options.rounds; round++) {
      const warmUp = round === 0;
      for (const scenario of rotation(COMMAND_SCENARIOS, round)) {
        const before = scenario === 'redis' && !warmUp ? await stats() : undefined;
        const cpuBefore = await cpuOf(pids[scenario]);
        const result = await runLoad({ target: targetOf[scenario], era: '2026', method: 'tools/call', tools: options.tools }, { durationMs: warmUp ? options.warmUpMs : options.sliceMs, concurrency: options.concurrency, minRequests: options.concurrency });
        if (warmUp) continue;
        rates[scenario].push(result.rate);
        cpu[scenario].push(((await cpuOf(pids[scenario])) - cpuBefore) / result.requests);
        if (before) {
          addInto(redisDuringLoad, commandDelta(before, await stats()));
          redisLoadSeconds += result.seconds;
          redisRequests += result.requests;
        }
      }
      options.progress(`  command: ${warmUp ? 'warm-up round' : `round ${round}/${options.rounds}`} done (load average ${os.loadavg()[0]!.toFixed(2)})`);
    }
    // The replica's background, with no request at all: as long as the measured --redis-url slices took together.
    const idleStarted = performance.now();
    const idleBefore = await stats();
    await new Promise((resolve) => setTimeout(resolve, redisLoadSeconds * 1000));
    const redisIdle = commandDelta(idleBefore, await stats());
    const redisIdleSeconds = (performance.now() - idleStarted) / 1000;
    await Promise.all(targets.map((t) => t.close()));
    targets.length = 0;
    for (const stop of stops.splice(0)) await stop();
    const size = async (file: string) => (await stat(file)).size;
    return {
      tools: options.tools,
      concurrency: options.concurrency,
      rates,
      cpu,
      logBytes: { defaults: await size(commands.defaults.logFile), pretty: await size(commands.pretty.logFile), redis: await size(commands.redis.logFile) },
      loadBefore,
      loadAfter: os.loadavg(),
      redisDuringLoad,
      redisLoadSeconds,
      redisRequests,
      redisIdle,
      redisIdleSeconds,
    };
  } finally {
    await Promise.all(targets.map((t) => t.close()));
    for (const stop of stops) await stop().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  }
}
