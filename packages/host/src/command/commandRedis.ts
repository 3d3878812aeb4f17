/**
 * `--redis-url`: the command loads `@reactor/redis` only when asked, so the
 * host never depends on a Redis client. The package is an optional peer: when
 * it is missing, the command fails at start-up saying which package to add.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerEventBus } from '@modelcontextprotocol/server';
import { entryOf } from './catalogLoader.js';
import { findAppRoot, locatePackage } from '../discovery/discovery.js';
import { ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';
import type { McpAppHealthCheck } from '../serve/http/options.js';
import type { SessionScopedEventStore } from '../serve/http/sessions/sessionEventStore.js';
import type { SessionRegistry } from '../serve/http/sessions/sessionRegistry.js';
import type { TaskStore } from '../serve/http/tasks/taskStore.js';
import type { Logger } from '../kernel/logger.js';
import type { McpHost } from '../host/host.js';

/** What the command asks of Redis (`@reactor/redis`'s `ConnectRedisOptions` extends it). */
export interface CommandRedisOptions {
  readonly url: string;
  readonly sessionIdleTimeoutMs: number;
  readonly logger: Logger;
  /** `--node-id`: this replica's name in the session registry (default there: host name and pid). */
  readonly nodeId?: string;
  /** `--redis-key-prefix`: the prefix of every key and channel (default there: `reactor:mcp`). */
  readonly keyPrefix?: string;
  /** `--event-replay-max`: how many SSE events a session keeps for `Last-Event-ID` replay (default there: 100). */
  readonly eventReplayMax?: number;
  /** `--event-replay-age`: how long an SSE event can be replayed, ms (default there: 5 minutes). */
  readonly eventReplayAgeMs?: number;
}

/**
 * What the command gets from Redis. Declared here, where the command uses it,
 * and extended by `@reactor/redis`'s `ReactorRedis` (so its `connectRedis`
 * is checked against it when that package builds); the host imports no Redis
 * code or types, since `@reactor/redis` depends on the host, not the reverse.
 */
export interface CommandRedis {
  readonly eventStore: SessionScopedEventStore;
  readonly bus: ServerEventBus;
  readonly healthCheck: McpAppHealthCheck;
  /** Which replica holds each session (absent in @reactor/redis before session takeover). */
  readonly sessions?: SessionRegistry;
  /** Where tasks live, shared by the replicas (absent in @reactor/redis before tasks): passed as `createMcpApp`'s `tasks.store`. */
  readonly tasks?: TaskStore;
  /** Makes the host's enable/disable cluster-wide (absent in older @reactor/redis). */
  shareHostToggles?(host: McpHost): Promise<unknown>;
  close(): Promise<void>;
}

/** The package `--redis-url` needs. */
export const REDIS_PACKAGE = '@reactor/redis';

/**
 * Where to import `@reactor/redis` from: the application's copy (located from
 * `root` like an extension, so pnpm's isolated layout finds it), else the
 * bare name (a hoisted layout, or a copy beside the host).
 */
async function redisSpecifier(root: string | undefined): Promise<string> {
  try {
    const dir = await locatePackage(REDIS_PACKAGE, root ?? (await findAppRoot(process.cwd())));
    if (dir === undefined) return REDIS_PACKAGE;
    const entry = entryOf(JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { exports?: unknown; main?: unknown });
    return entry === undefined ? REDIS_PACKAGE : pathToFileURL(path.join(dir, entry)).href;
  } catch {
    return REDIS_PACKAGE;
  }
}

/**
 * Imports `@reactor/redis` (the application's at `root`, else any resolvable);
 * a clear `REACTOR_OPTION_INVALID` naming `subject` (the flag that needs it)
 * when it is not installed.
 */
export async function importRedis<T extends object>(root: string | undefined, subject: string, hint: string): Promise<Partial<T>> {
  // A computed specifier: neither TypeScript nor a bundler makes the host depend on the package.
  const specifier: string = await redisSpecifier(root);
  try {
    return (await import(specifier)) as Partial<T>;
  } catch (error) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, {
      subject,
      problem: `needs the package ${REDIS_PACKAGE}, which could not be loaded (${errorMessage(error)})`,
      expected: `${REDIS_PACKAGE} installed beside @reactor/host`,
      received: 'no such package',
      hint,
    });
  }
}

/** Imports `@reactor/redis` (the application's at `root`, else any resolvable) and connects; a clear `REACTOR_OPTION_INVALID` when it is not installed. */
export async function loadRedis(options: CommandRedisOptions, root?: string): Promise<CommandRedis> {
  const loaded = await importRedis<{ connectRedis: (options: CommandRedisOptions) => Promise<CommandRedis> }>(root, 'flag "--redis-url" / REACTOR_MCP_REDIS_URL', `install it (pnpm add ${REDIS_PACKAGE}), or drop --redis-url to serve from this process alone`);
  if (typeof loaded.connectRedis !== 'function') throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: REDIS_PACKAGE, problem: 'exports no connectRedis function', expected: 'a compatible version of the package', received: 'a module without connectRedis', hint: `update ${REDIS_PACKAGE}` });
  return await loaded.connectRedis(options);
}
