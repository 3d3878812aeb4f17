/**
 * Everything a replica needs from Redis, from one URL: the session event
 * store, the change bus and a `/healthz` check, over two connections (one
 * for commands, one subscriber). Redis being down never stops a replica:
 * start-up waits a bounded time, then serves on and keeps reconnecting with
 * backoff; `/healthz` says `degraded` meanwhile.
 */
import type { McpAppHealthCheck, Logger, McpHost } from '@reactor/host';
import type { CommandRedis, CommandRedisOptions } from '@reactor/host/command';
import { createClient } from '@redis/client';
import { RedisServerEventBus } from './eventBus.js';
import { RedisEventStore, type RedisConnection } from './eventStore.js';
import { DEFAULT_KEY_PREFIX } from './keys.js';
import { RedisSessionRegistry } from './sessionRegistry.js';
import { RedisTaskStore } from './taskStore.js';
import { RedisHostToggles } from './toggles.js';

/** Options of {@link connectRedis}: what `reactor-mcp-server --redis-url` passes (`CommandRedisOptions`), and more. */
export interface ConnectRedisOptions extends CommandRedisOptions {
  /** `redis://[[user]:password@]host[:port][/db]` (or `rediss://`). */
  readonly url: string;
  /** The session idle timeout, ms: how long a session's events outlive its last one. */
  readonly sessionIdleTimeoutMs: number;
  readonly logger: Logger;
  /** Prefix of every key and channel. Default `reactor:mcp`. */
  readonly keyPrefix?: string;
  /** How long start-up waits for Redis before serving degraded, ms. Default 5000. */
  readonly connectTimeoutMs?: number;
  /** This replica's name in the session registry. Default: host name and process id. */
  readonly nodeId?: string;
  /** How often this replica's heartbeat is refreshed, ms (it lasts 3 intervals). Default 1000. */
  readonly heartbeatIntervalMs?: number;
}

/** A replica's Redis: pass `eventStore`, `bus`, `sessions` (as `sessionRegistry`) and `healthCheck` to `createMcpApp`. */
/**
 * Extends the host's `CommandRedis` (what the command asks of this package):
 * the host declares the shape and depends on no Redis code; this package
 * fills it, and the compiler checks that it does.
 */
export interface ReactorRedis extends CommandRedis {
  readonly eventStore: RedisEventStore;
  readonly bus: RedisServerEventBus;
  /** Which node holds each session, and this node's heartbeat: pass as `createMcpApp({ sessionRegistry })`. */
  readonly sessions: RedisSessionRegistry;
  /**
   * MCP task records shared by every replica: pass as `createMcpApp({ tasks: { store } })`
   * (the command does). Any replica answers `tasks/get`/`update`/`cancel`; a
   * replica whose heartbeat expires has its unfinished tasks failed by the others.
   */
  readonly tasks: RedisTaskStore;
  /** `redis` under `/healthz` `checks`: not ok while either connection is down; its detail names the cluster's toggle revision once toggles are shared. */
  readonly healthCheck: McpAppHealthCheck;
  /**
   * Makes `host.enable(name)` / `host.disable(name)` cluster-wide: applies the
   * cluster's disabled set now, publishes this host's toggles, applies the
   * other replicas'. Call once, after the host is built.
   */
  shareHostToggles(host: McpHost): Promise<RedisHostToggles>;
  /** Closes both connections. */
  close(): Promise<void>;
}

/** Reconnect delay: doubling from 50 ms to at most 5 s, with jitter so replicas do not reconnect in step. */
export function reconnectDelay(retries: number): number {
  const base = Math.min(5_000, 50 * 2 ** Math.min(retries, 7));
  return Math.round(base / 2 + Math.random() * (base / 2));
}

/** Connects to Redis at `options.url` (bounded wait; serves degraded if it is down). */
export async function connectRedis(options: ConnectRedisOptions): Promise<ReactorRedis> {
  const logger = options.logger.child({ component: 'redis' });
  const where = redactedUrl(options.url);
  // Commands fail at once while Redis is down instead of queueing without bound.
  const client = createClient({ url: options.url, disableOfflineQueue: true, socket: { reconnectStrategy: reconnectDelay } }) as unknown as RedisConnection;
  let down = false;
  client.on('error', (error: Error) => {
    if (!down) logger.warn({ err: error }, `Redis at ${where} is unreachable (${error.message}); serving without it and reconnecting`);
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.info({}, `Redis at ${where} is reachable again`);
    down = false;
  });
  const timeoutMs = options.connectTimeoutMs ?? 5_000;
  let timer: NodeJS.Timeout | undefined;
  const connecting = client.connect().then(() => true, () => false);
  const connected = await Promise.race([connecting, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))]);
  clearTimeout(timer);
  if (!connected) logger.warn({}, `Redis at ${where} did not answer within ${timeoutMs} ms; serving degraded (2026-07-28 and stateless requests are unaffected) and reconnecting in the background`);
  const eventStore = new RedisEventStore(client, {
    ttlMs: options.sessionIdleTimeoutMs,
    logger,
    ...(options.keyPrefix !== undefined ? { keyPrefix: options.keyPrefix } : {}),
    ...(options.eventReplayMax !== undefined ? { maxEventsPerSession: options.eventReplayMax } : {}),
    ...(options.eventReplayAgeMs !== undefined ? { maxEventAgeMs: options.eventReplayAgeMs } : {}),
  });
  const bus = await RedisServerEventBus.connect(client, { logger, ...(options.keyPrefix !== undefined ? { keyPrefix: options.keyPrefix } : {}) });
  const sessions = new RedisSessionRegistry(client, {
    ttlMs: options.sessionIdleTimeoutMs,
    logger,
    ...(options.nodeId !== undefined ? { nodeId: options.nodeId } : {}),
    ...(options.heartbeatIntervalMs !== undefined ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
    ...(options.keyPrefix !== undefined ? { keyPrefix: options.keyPrefix } : {}),
  });
  await sessions.start();
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 1_000;
  const tasks = new RedisTaskStore(client, {
    nodeId: sessions.nodeId,
    logger,
    reapIntervalMs: heartbeatIntervalMs,
    heartbeatTtlMs: heartbeatIntervalMs * 3,
    ...(options.keyPrefix !== undefined ? { keyPrefix: options.keyPrefix } : {}),
  });
  await tasks.start((channel, onMessage, onReconnect) => bus.listen(channel, onMessage, onReconnect));
  let toggles: RedisHostToggles | undefined;
  return {
    eventStore,
    bus,
    sessions,
    tasks,
    healthCheck: {
      name: 'redis',
      check: () =>
        bus.connected
          ? { ok: true, ...(toggles ? { detail: `cluster revision ${toggles.revision}` } : {}) }
          : { ok: false, detail: `Redis at ${where} is unreachable; reconnecting` },
    },
    async shareHostToggles(host) {
      if (toggles) throw new Error('@reactor/redis: shareHostToggles() was already called on this connection; call it once, for the replica\'s one host');
      // Each replica's heartbeat carries its extensions and the revision it applied, for `cluster status`.
      toggles = new RedisHostToggles(host, client, options.keyPrefix ?? DEFAULT_KEY_PREFIX, logger, (report) => sessions.announce(report));
      await toggles.start(bus);
      return toggles;
    },
    async close() {
      // Stopped, not released: a replica that closes without the app's close() (which releases) lets the heartbeat expire.
      sessions.stop();
      toggles?.stop();
      await tasks.close();
      await bus.close();
      if (client.isReady) await client.close();
      else client.destroy();
    },
  };
}

/** The URL without its password, for logs and `/healthz`. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable Redis URL)';
  }
}
