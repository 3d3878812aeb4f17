/**
 * `--redis-url`: the command loads `@reactor/redis` only when asked, so the
 * host never depends on a Redis client. The package is an optional peer: when
 * it is missing, the command fails at start-up saying which package to add.
 */
import type { ServerEventBus } from '@modelcontextprotocol/server';
import { ErrorCodes, errorMessage, ReactorError } from './errors.js';
import type { McpAppHealthCheck } from './http/options.js';
import type { SessionScopedEventStore } from './http/sessionEventStore.js';
import type { Logger } from './logger.js';

/** What the command asks of Redis. */
export interface CommandRedisOptions {
  readonly url: string;
  readonly sessionIdleTimeoutMs: number;
  readonly logger: Logger;
}

/** What the command gets from Redis (the shape of `@reactor/redis`'s `connectRedis` result). */
export interface CommandRedis {
  readonly eventStore: SessionScopedEventStore;
  readonly bus: ServerEventBus;
  readonly healthCheck: McpAppHealthCheck;
  close(): Promise<void>;
}

/** The package `--redis-url` needs. */
export const REDIS_PACKAGE = '@reactor/redis';

/** Imports `@reactor/redis` and connects; a clear `REACTOR_OPTION_INVALID` when it is not installed. */
export async function loadRedis(options: CommandRedisOptions): Promise<CommandRedis> {
  // A variable specifier: neither TypeScript nor a bundler makes the host depend on the package.
  const specifier: string = REDIS_PACKAGE;
  let loaded: { connectRedis?: (options: CommandRedisOptions) => Promise<CommandRedis> };
  try {
    loaded = (await import(specifier)) as typeof loaded;
  } catch (error) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, {
      subject: 'flag "--redis-url" / REACTOR_MCP_REDIS_URL',
      problem: `needs the package ${REDIS_PACKAGE}, which could not be loaded (${errorMessage(error)})`,
      expected: `${REDIS_PACKAGE} installed beside @reactor/host`,
      received: 'no such package',
      hint: `install it (pnpm add ${REDIS_PACKAGE}), or drop --redis-url to serve from this process alone`,
    });
  }
  if (typeof loaded.connectRedis !== 'function') throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: REDIS_PACKAGE, problem: 'exports no connectRedis function', expected: 'a compatible version of the package', received: 'a module without connectRedis', hint: `update ${REDIS_PACKAGE}` });
  return await loaded.connectRedis(options);
}
