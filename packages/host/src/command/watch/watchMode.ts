/**
 * `reactor-mcp-server --watch`: the dev loop. Serves over HTTP like the
 * command, and on a change to a linked extension package (rebuilt first when
 * its sources changed) or to package.json, discovers and starts the extensions
 * again as a new generation — a new host and app behind the same listener, so
 * the URL never changes. Open 2025 sessions are sent
 * `notifications/tools/list_changed` and then closed: a session keeps the
 * blueprint it started on, so the client re-initializes (MCP: a 404 for a
 * session means "start a new one") and gets the reloaded tools. Open
 * 2026-07-28 `subscriptions/listen` streams hear tools, prompts and resources
 * list changed on the generation's bus before it closes; their next request
 * (and next listen) reaches the new generation. A reload that
 * fails (a build error, an extension that throws) is logged and the previous
 * generation keeps serving.
 *
 * Never on by default, and only from the flag (no environment variable), so
 * it cannot leak into a production configuration.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { register } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { CommandOptions } from '../commandOptions.js';
import type { CommandDependencies, RunningCommand } from '../commandTypes.js';
import { findAppRoot } from '../../discovery/discovery.js';
import { errorMessage } from '../../kernel/errors.js';
import type { McpHost } from '../../host/host.js';
import type { Logger } from '../../kernel/logger.js';
import { listChangedServers, type ListChangedServers } from './watchServers.js';
import { HOST_VERSION } from '../../kernel/version.js';
import { linkedExtensionPackages } from './linkedPackages.js';
import { watchExtensions } from './watcher.js';

interface Generation {
  readonly number: number;
  readonly host: McpHost;
  readonly app: Awaited<ReturnType<CommandDependencies['createMcpApp']>>;
  /** The SDK servers minted in this generation, to notify on reload. */
  readonly servers: ListChangedServers;
}

let hooksRegistered = false;

/** Serves with watch mode on (HTTP only). */
export async function serveWatching(options: CommandOptions, deps: CommandDependencies, logger: Logger): Promise<RunningCommand> {
  if (!hooksRegistered) {
    register('./versionHooks.js', import.meta.url);
    hooksRegistered = true;
  }
  const root = deps.root ?? (await findAppRoot(process.cwd()));
  let count = 0;
  const load = async (): Promise<Generation> => {
    const number = ++count;
    const servers = listChangedServers(HOST_VERSION, (error) => logger.error({ err: error }, `watch: a listen-stream listener failed: ${error.message}`));
    const entries = await deps.loadExtensions({ logger, root, reload: number, ...(options.extensions ? { names: options.extensions } : {}) });
    const host = await deps.buildHost(entries, {
      name: options.name,
      toolsetsTool: options.toolsetsTool,
      logger,
      // Advertise tools.listChanged, and keep each server to notify it when the extensions reload.
      serverFactory: servers.serverFactory,
    });
    try {
      const app = await deps.createMcpApp(host, {
        path: options.path,
        ...(options.toolsets === undefined ? {} : { defaultSelection: options.toolsets }),
        ignoreQueryKeys: options.ignoreQueryKeys,
        sessions: options.sessions,
        ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
        bus: servers.bus,
      });
      return { number, host, app, servers };
    } catch (error) {
      await host.stop();
      throw error;
    }
  };

  let current = await load();
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => current.app(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${(server.address() as AddressInfo).port}${options.path}`;

  const retire = async (old: Generation) => {
    const streams = old.servers.notifyListeners();
    const sessions = await old.servers.notifyToolListChanged();
    await old.app.close();
    await old.host.stop();
    return { sessions, streams };
  };
  const reload = async (why: string) => {
    let next: Generation;
    try {
      next = await load();
    } catch (error) {
      logger.error({ err: error, changed: why }, `watch: reload failed, still serving generation ${current.number}: ${errorMessage(error)}`);
      return;
    }
    const old = current;
    current = next;
    const notified = await retire(old);
    const tools = [...new Set(current.host.offeredTools().map((t) => t.name))].sort();
    logger.info(
      { changed: why, generation: next.number, notified: notified.sessions, listenStreams: notified.streams, tools },
      `watch: reloaded (${why}); ${notified.sessions} open session(s) and ${notified.streams} listen stream(s) told the lists changed`,
    );
  };
  const watching = watchExtensions({ root, packages: await linkedExtensionPackages(root), logger, reload });
  logger.info({ transport: 'http', url, watch: true, toolsets: current.host.declaredToolsets().map((t) => t.name) }, `${options.name} serving at ${url} (watch mode: reloads on changes; not for production)`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      watching.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await current.app.close();
      server.closeAllConnections();
      await closed;
      await current.host.stop();
      logger.info('stopped');
    })());
  return {
    options,
    get host() {
      return current.host;
    },
    url,
    server,
    // Watch mode is a loopback-only dev loop (runCommand refuses it elsewhere): no auth.
    auth: undefined,
    close,
  };
}
