/**
 * Proxy: any MCP server, in any language, adopted through the SDK's client —
 * a command over stdio (`adoptProcess`) or a Streamable HTTP endpoint
 * (`adoptRemote`). Listed once at start (and again when it says its lists
 * changed), calls forwarded, one shared connection restarted with backoff,
 * closed in `onStop`; `perConnection: true` gives each connection its own.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { createStderrLogger } from '@reactor/host';
import { adoptedExtension, serveRelisting, type AdoptedExtension, type AdoptionReport } from '../adopted.js';
import { AdoptError, AdoptErrorCodes } from '../errors.js';
import { liveServerOf } from '../liveCall.js';
import type { AdoptOptions } from '../options.js';
import { listUpstream } from './listing.js';
import { Upstream, type RestartOptions, type UpstreamStatus } from './upstream.js';

/** Options every proxy takes besides {@link AdoptOptions}. */
export interface ProxyOptions extends AdoptOptions {
  /** Reconnect with backoff when the server goes away (default), or `false`. */
  readonly restart?: RestartOptions | false;
  /**
   * One connection (one child process) per client connection instead of one
   * shared: for servers that keep per-client state. Each is opened at its
   * connection's first call and closed with the connection. Default false.
   */
  readonly perConnection?: boolean;
}

/** Options of {@link adoptProcess}. */
export interface AdoptProcessOptions extends ProxyOptions {
  /** The command to run, e.g. `node` or `uvx`. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to a safe default environment (PATH, HOME…), as the SDK's stdio client does. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** Options of {@link adoptRemote}. */
export interface AdoptRemoteOptions extends ProxyOptions {
  /** The server's Streamable HTTP endpoint. */
  readonly url: string | URL;
  /** Sent with every request (an `Authorization` header, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** An adopted proxy: its extension, plus the state of its shared connection. */
export interface AdoptedProxy extends AdoptedExtension {
  /** The shared connection (the one that listed, under `perConnection`). */
  readonly connection: UpstreamStatus;
}

/** Adopts a server that runs as a command speaking MCP over stdio. */
export async function adoptProcess(options: AdoptProcessOptions): Promise<AdoptedProxy> {
  if (typeof options?.command !== 'string' || options.command === '') {
    throw new AdoptError(AdoptErrorCodes.OPTION_INVALID, { subject: `adoptProcess option "command"${typeof options?.name === 'string' ? ` of adopted server "${options.name}"` : ''}`, problem: 'is missing', expected: 'a command such as "node" or "uvx"', received: typeof options?.command });
  }
  const commandLine = [options.command, ...(options.args ?? [])].join(' ');
  const transport = (): Transport =>
    new StdioClientTransport({
      command: options.command,
      args: [...(options.args ?? [])],
      ...(options.env !== undefined ? { env: { ...options.env } } : {}),
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      stderr: 'pipe',
    });
  return await adoptProxy(options, 'process', `command "${commandLine}"`, options.from ?? commandLine, transport);
}

/** Adopts a server reachable over Streamable HTTP. */
export async function adoptRemote(options: AdoptRemoteOptions): Promise<AdoptedProxy> {
  let url: URL;
  try {
    url = new URL(options?.url);
  } catch {
    throw new AdoptError(AdoptErrorCodes.OPTION_INVALID, { subject: `adoptRemote option "url"${typeof options?.name === 'string' ? ` of adopted server "${options.name}"` : ''}`, problem: 'is not a URL', expected: 'an absolute http(s) URL of the server\'s MCP endpoint', received: typeof options?.url === 'string' ? JSON.stringify(options.url) : typeof options?.url });
  }
  const transport = (): Transport => new StreamableHTTPClientTransport(url, { requestInit: { headers: { ...options.headers } } });
  return await adoptProxy(options, 'remote', `URL ${url.href}`, options.from ?? url.href, transport);
}

async function adoptProxy(options: ProxyOptions, how: 'process' | 'remote', describe: string, from: string, transport: () => Transport): Promise<AdoptedProxy> {
  const logger = (options.logger ?? createStderrLogger('warn')).child({ extension: options.name });
  const upstreamOptions = { extension: options.name, describe, transport, restart: options.restart ?? {}, logger };
  const shared = new Upstream({
    ...upstreamOptions,
    onRelist: async (client) => {
      const listed = await listUpstream(client, upstreamFor);
      const before = new Set(served.adoption.tools.map((t) => t.original));
      const added = listed.tools.map((t) => t.name).filter((n) => !before.has(n));
      const gone = [...before].filter((n) => !listed.tools.some((t) => t.name === n));
      // Served from now on: new connections and 2026-07-28 requests get the new lists,
      // listen streams are told; an open 2025 session keeps the lists it started with.
      let report: AdoptionReport | undefined;
      try {
        report = serveRelisting(served, listed);
      } catch (error) {
        logger.error({ err: error }, `adopted server "${options.name}" listed again, but its new lists cannot be served (${error instanceof Error ? error.message : String(error)}); the previous ones are kept`);
        return;
      }
      if (report === undefined) {
        logger.warn({ added, gone }, `adopted server "${options.name}" listed again, but the host kept the previous lists (the extension is not serving, or the host reported why)`);
      } else {
        logger.info({ added, gone, tools: report.tools.length }, `adopted server "${options.name}" changed its lists (${added.length} new tool(s): ${added.join(', ') || '-'}; ${gone.length} gone: ${gone.join(', ') || '-'}); now served`);
      }
    },
  });
  const perConnection = new WeakMap<McpServer, Promise<Upstream>>();
  const opened = new Set<Upstream>();
  const upstreamFor = (ctx: ServerContext): Upstream | Promise<Upstream> => {
    if (options.perConnection !== true) return shared;
    const live = liveServerOf(ctx);
    if (!live) return shared;
    let pending = perConnection.get(live.server);
    if (!pending) {
      const own = new Upstream(upstreamOptions);
      opened.add(own);
      pending = own.start().then(() => own);
      perConnection.set(live.server, pending);
      const low = live.server.server;
      const previous = low.onclose;
      low.onclose = () => {
        previous?.();
        opened.delete(own);
        void own.stop();
      };
    }
    return pending;
  };
  const client = await shared.start();
  let served: AdoptedExtension;
  try {
    const recording = await listUpstream(client, upstreamFor);
    served = adoptedExtension(recording, { ...options, from }, how, {
      onStop: async () => {
        await Promise.all([shared.stop(), ...[...opened].map((u) => u.stop())]);
      },
    });
  } catch (error) {
    await shared.stop();
    throw error;
  }
  return Object.assign(served, { connection: shared });
}
