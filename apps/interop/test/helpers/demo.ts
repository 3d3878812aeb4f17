/**
 * The demo as the interop suite serves it: the command main.ts runs, on a free
 * loopback port, with static bearer tokens (`--auth-tokens-file`), and a record
 * of every request the server saw — which client sent it (the suite runs one
 * client at a time and says which), its method and path, the
 * `MCP-Protocol-Version` header and the status it got.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildHost, loadExtensions, runCommand, silentLogger } from '@reactor/host';
import { demoArgs, DEMO_INSTRUCTIONS } from '@reactor/demo/dist/demo.js';

const appRoot = dirname(createRequire(import.meta.url).resolve('@reactor/demo/package.json'));

/** One request the demo answered. */
export interface SeenRequest {
  readonly client: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly protocolVersion: string | undefined;
  readonly sessionId: boolean;
  status: number;
}

export interface ServedDemo {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** A token the server accepts (from its tokens file). */
  readonly token: string;
  readonly seen: readonly SeenRequest[];
  /** Names the client whose requests come next. */
  attribute(client: string | undefined): void;
  close(): Promise<void>;
}

/** Starts the demo with a tokens file holding one fresh token. Throws when it does not start. */
export async function serveDemo(): Promise<ServedDemo> {
  const dir = mkdtempSync(join(tmpdir(), 'reactor-interop-'));
  const token = randomBytes(24).toString('base64url');
  const tokensFile = join(dir, 'tokens.json');
  writeFileSync(tokensFile, JSON.stringify([{ name: 'interop', sha256: createHash('sha256').update(token).digest('hex'), scopes: [] }]));
  const running = await runCommand(
    demoArgs(['--port', '0', '--log-level', 'silent', '--auth-tokens-file', tokensFile]),
    { REACTOR_BENCHMARKS_DATA: join(dir, 'benchmarks') },
    {
      loadExtensions: (options) => loadExtensions({ ...options, root: appRoot }),
      buildHost: (extensions, options) => buildHost(extensions, { ...options, instructions: DEMO_INSTRUCTIONS }),
      createLogger: () => silentLogger,
      signals: { once: () => process, removeListener: () => process },
      exit: () => {},
    },
  );
  if (!running?.url || !running.server) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error('the demo did not start');
  }
  const seen: SeenRequest[] = [];
  let current: string | undefined;
  running.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = new URL(req.url ?? '/', 'http://x');
    const entry: SeenRequest = {
      client: current,
      method: req.method ?? 'GET',
      path: target.pathname,
      protocolVersion: header(req.headers['mcp-protocol-version']),
      sessionId: req.headers['mcp-session-id'] !== undefined,
      status: 0,
    };
    seen.push(entry);
    res.on('finish', () => (entry.status = res.statusCode));
  });
  return {
    url: running.url,
    token,
    seen,
    attribute: (client) => (current = client),
    close: async () => {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
