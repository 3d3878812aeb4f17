/**
 * Serving one selection over stdio, through the SDK's stdio entry (which
 * settles the protocol era on the opening message and pins one server for the
 * connection). stdout carries only the protocol: the host logs to stderr.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport, serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import { errorMessage } from '../kernel/errors.js';
import type { McpHost } from '../host/host.js';
import type { Logger } from '../kernel/logger.js';
import { parseSelection, type Selection } from '../selection/selection.js';
import { markNetworkTransport } from '../telemetry/requestRecord.js';

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions {
  /** What to serve: a query string (`"only=spaces"`) or a parsed selection. Default: the default toolsets. */
  readonly selection?: string | Selection;
  /** The tenant whose extensions are served. */
  readonly tenant?: string;
  /** Serve only read-only tools, whatever the selection says (the operator's bound). Default `false`. */
  readonly readOnly?: boolean;
  /** Where errors go. Default: the host's logger (stderr). Never stdout. */
  readonly logger?: Logger;
  /** Input stream. Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Output stream, the protocol only. Default `process.stdout`. */
  readonly stdout?: Writable;
}

/** A served stdio connection. */
export interface StdioServing {
  /** Resolves when the connection ends: the client closed stdin, or `close()` was called. */
  readonly closed: Promise<void>;
  /** Ends the connection. */
  close(): Promise<void>;
}

/**
 * Serves `selection` over stdio (both protocol eras). The selection is built
 * at once — so held extensions it names wake before the first message and a
 * failure shows at start — and rebuilt (cheaply, from cache) when the client
 * opens, so a change made meanwhile is served.
 *
 * @example
 * ```ts
 * const host = await buildHost(await loadExtensions(), { logger: createStderrLogger('info') });
 * const serving = await serveStdio(host, { selection: 'only=spaces' });
 * await serving.closed;  // the client went away
 * await host.stop();
 * ```
 */
export async function serveStdio(host: McpHost, options: ServeStdioOptions = {}): Promise<StdioServing> {
  const logger = (options.logger ?? host.logger).child({ component: 'stdio' });
  const selection = typeof options.selection === 'string' || options.selection === undefined ? parseSelection(options.selection) : options.selection;
  const tenant = options.tenant;
  const readOnly = options.readOnly === true;
  const first = await host.build(selection, { tenant, readOnly });
  if (first.unknown.size > 0) {
    logger.warn({ unknownToolsets: [...first.unknown] }, `the selection names toolset(s) nobody declares (${[...first.unknown].map((n) => JSON.stringify(n)).join(', ')}); they are ignored`);
  }

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  // The SDK's entry owns the transport's onclose; observing close() is how we learn the client left.
  class ObservedTransport extends StdioServerTransport {
    override async close(): Promise<void> {
      await super.close();
      resolveClosed();
    }
  }
  const transport = new ObservedTransport(options.stdin, options.stdout);
  const handle = sdkServeStdio(
    async () => {
      const built = await host.build(selection, { tenant, readOnly });
      const server = await built.createServer({ selection });
      markNetworkTransport(server, 'pipe');
      return server;
    },
    { transport, onerror: (error) => logger.warn({ err: error }, `stdio: ${errorMessage(error)}`) },
  );
  return {
    closed,
    close: async () => {
      await handle.close();
      resolveClosed();
    },
  };
}
