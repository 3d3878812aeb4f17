/**
 * The command's HTTP serving: a Node HTTP server around the app, with the
 * auth the flags configure, listening on the chosen host and port, and a
 * graceful close — new requests get 503, open ones may finish (bounded), then
 * `onStop` hooks run.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hkdfSync } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { errorMessage } from '../kernel/errors.js';
import type { McpHost } from '../host/host.js';
import type { Logger } from '../kernel/logger.js';
import type { CommandDependencies, RunningCommand } from './commandTypes.js';
import { invalid, type CommandOptions } from './commandOptions.js';
import { CATALOG_PACKAGE, type CatalogAppOptions } from './catalogLoader.js';

/** The catalog's app options when on and installed; logs where the page is, or how to get one. */
async function catalogFor(options: CommandOptions, deps: CommandDependencies, logger: Logger): Promise<CatalogAppOptions> {
  if (!options.catalog) return {};
  let catalog: CatalogAppOptions | undefined;
  try {
    catalog = await deps.loadCatalog(deps.root);
  } catch (error) {
    // The page is an extra: a broken or unfindable one costs the page, never the server.
    logger.warn({ err: error instanceof Error ? error : undefined }, `no catalog page: ${CATALOG_PACKAGE} could not be loaded (${errorMessage(error)}); serving without it`);
    return {};
  }
  if (catalog === undefined) {
    logger.info({}, `no catalog page: install ${CATALOG_PACKAGE} in the application for one at /`);
    return {};
  }
  return catalog;
}

/** The command's session idle timeout: the app's default (`DEFAULT_SESSION_IDLE_MS`, not imported so stdio mode never loads the HTTP modules). */
const SESSION_IDLE_MS = 30 * 60_000;

/**
 * Serves `host` over HTTP as the options say. `sessions.count` is set to read
 * the app's open sessions (for `--metrics-port`).
 */
export async function serveHttp(host: McpHost, options: CommandOptions, deps: CommandDependencies, logger: Logger, sessions: { count?: () => number } = {}): Promise<RunningCommand> {
  // Imported here: jose (behind it, only for --auth-issuer) stays off the library's import path.
  const auth = await (await import('./auth/commandAuth.js')).setUpCommandAuth(options.auth, { logger, name: options.name, listenHost: options.host, toolsets: host.declaredToolsets(), signals: deps.signals });
  const idleTimeoutMs = options.sessionIdleTimeoutMs ?? SESSION_IDLE_MS;
  const redis =
    options.redisUrl === undefined
      ? undefined
      : await deps.connectRedis({
          url: options.redisUrl,
          sessionIdleTimeoutMs: idleTimeoutMs,
          logger,
          ...(options.nodeId === undefined ? {} : { nodeId: options.nodeId }),
          ...(options.redisKeyPrefix === undefined ? {} : { keyPrefix: options.redisKeyPrefix }),
          ...(options.eventReplayMax === undefined ? {} : { eventReplayMax: options.eventReplayMax }),
          ...(options.eventReplayAgeMs === undefined ? {} : { eventReplayAgeMs: options.eventReplayAgeMs }),
        });
  // Task ids minted on one replica are checked on another: every replica must sign them with the same key.
  let tasksSecret: string | undefined;
  if (redis?.tasks) {
    try {
      tasksSecret = sharedTasksSecret(options);
    } catch (error) {
      await redis.close().catch(() => undefined);
      throw error;
    }
  }
  await redis?.shareHostToggles?.(host);
  const app = await deps.createMcpApp(host, {
    ...(auth.app ? { auth: auth.app } : {}),
    ...(redis ? { eventStore: redis.eventStore, bus: redis.bus, healthChecks: [redis.healthCheck] } : {}),
    ...(redis?.sessions && options.sessions !== false ? { sessionRegistry: redis.sessions } : {}),
    // Tasks in Redis when @reactor/redis offers a store (any replica answers tasks/*; ids signed with a key every replica shares).
    ...(redis?.tasks ? { tasks: { store: redis.tasks, secret: tasksSecret! } } : {}),
    ...(options.nodeId === undefined ? {} : { nodeId: options.nodeId }),
    path: options.path,
    ...(options.toolsets === undefined ? {} : { defaultSelection: options.toolsets }),
    ignoreQueryKeys: options.ignoreQueryKeys,
    sessions: options.sessions && options.sessionIdleTimeoutMs !== undefined ? { idleTimeoutMs } : options.sessions,
    ...(options.fastPath ? {} : { fastPath: false }),
    ...(options.readOnly ? { readOnly: true } : {}),
    ...(options.dynamicToolsets ? { dynamicToolsets: true } : {}),
    ...(options.logPayloads ? { logPayloads: true } : {}),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.corsOrigins === undefined ? {} : { corsOrigins: options.corsOrigins }),
    ...(options.corsAllowAnyOriginWithoutAuth ? { corsAllowAnyOriginWithoutAuth: true } : {}),
    ...(await catalogFor(options, deps, logger)),
  });
  // A test's stand-in app may have no sessions to count.
  sessions.count = () => (app as { sessionCount?: number }).sessionCount ?? 0;
  // How many requests are answering (not standing GET streams, which only end when their session does):
  // a count, not a set of responses — a shutdown only asks how many — and one listener shared by every response.
  let inFlight = 0;
  let draining = false;
  let drained: (() => void) | undefined;
  const answered = (): void => {
    if (--inFlight === 0) drained?.();
  };
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      res.writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' }).end(JSON.stringify({ error: 'the server is shutting down' }));
      return;
    }
    if (req.method !== 'GET') {
      inFlight++;
      // `on`, not `once`: a response emits 'close' once, and `once` would wrap the listener on every request.
      res.on('close', answered);
    }
    app(req, res);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    auth.close();
    await app.close();
    await redis?.close();
    throw invalid(`flag "--port" / "--host"`, `cannot listen on ${options.host}:${options.port} (${errorMessage(error)})`, undefined, undefined, 'choose another --port (0 picks a free one) or --host');
  }
  const listenPort = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(options.host)}:${listenPort}${options.path}`;
  // Where the other replicas relay this one's sessions' requests (they keep the request's path).
  redis?.sessions?.advertise?.(options.advertiseUrl ?? advertisedUrl(options.host, listenPort));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      // Before waiting on open requests: the other replicas may take this one's sessions over from now on.
      await redis?.sessions?.release().catch((error: unknown) => logger.warn({}, `releasing this node's sessions failed (${errorMessage(error)}); other nodes take them over once its heartbeat expires`));
      auth.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        logger.info({ requests: inFlight }, `letting ${inFlight} open request(s) finish (up to ${deps.shutdownGraceMs} ms)`);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => (drained = resolve)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, deps.shutdownGraceMs))),
        ]);
        clearTimeout(timer);
        if (inFlight > 0) logger.warn({ requests: inFlight }, `${inFlight} request(s) still open after ${deps.shutdownGraceMs} ms; closing them`);
      }
      await app.close();
      await redis?.close();
      server.closeAllConnections();
      await closed;
      await host.stop();
      logger.info('stopped');
    })());
  return { options, host, url, server, auth: auth.summary, close };
}

/** This replica's address for the other replicas: the listen host, or for a wildcard listener this machine's first external IPv4 address. */
export function advertisedUrl(host: string, port: number): string {
  let name = host;
  if (host === '0.0.0.0' || host === '::' || host === '') {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
    name = external?.address ?? '127.0.0.1';
  }
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The key task ids are signed with when replicas share a task store
 * (`--redis-url`): `REACTOR_TASKS_SECRET` when set, else one derived from
 * `--request-state-key` with HKDF-SHA256 (a key of its own, so the two
 * signatures never share a key); with neither, the replica refuses to start —
 * a random key per process would make every other replica refuse its task ids.
 */
export function sharedTasksSecret(options: Pick<CommandOptions, 'tasksSecret' | 'requestStateKey'>): string {
  if (options.tasksSecret !== undefined) return options.tasksSecret;
  if (options.requestStateKey !== undefined) {
    return Buffer.from(hkdfSync('sha256', options.requestStateKey, 'reactor-mcp', 'reactor-mcp task-id signing key v1', 32)).toString('base64url');
  }
  throw invalid(
    'flag "--redis-url"',
    'shares tasks between replicas, but no key to sign task ids is shared',
    'REACTOR_TASKS_SECRET, or --request-state-key (REACTOR_MCP_REQUEST_STATE_KEY), set to the same value on every replica',
    'neither',
    'set REACTOR_MCP_REQUEST_STATE_KEY (the task-id key is derived from it) or REACTOR_TASKS_SECRET to the same random value of at least 32 bytes on every replica — generate one with `openssl rand -base64 48`; else a task started on one replica is refused as unknown on the others',
  );
}
