/**
 * Server process: two builds of Reactor in one process, for `compare.ts` —
 * the build in `--before <dir>` (a copy of `@reactor/host`'s `dist`) at
 * `/before/mcp`, this workspace's at `/mcp`, each serving the catalogue
 * (`--tools N`). One process, so both builds meet the same machine at the
 * same moments: the comparison reads each one's share of the process's CPU.
 * With `--telemetry`, both record spans and the operation histogram through
 * one set of OpenTelemetry SDK providers that drop what they export, and
 * `GET /telemetry/spans` answers how many spans were exported. With
 * `--middleware`, both also offer the opt-in toolset whose one no-op
 * middleware wraps every `tools/call` (`MIDDLEWARE_QUERY` selects it).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BEFORE_PATH, reactorApp, SPANS_PATH, type HostModule } from '../frameworks/reactor.js';
import { droppingTelemetry } from '../frameworks/reactorTelemetry.js';
import { announce, argFlag, argNumber, argString } from './child.js';

const dir = path.resolve(argString('before'));
let before: HostModule;
try {
  before = (await import(pathToFileURL(path.join(dir, 'index.js')).href)) as HostModule;
} catch (error) {
  throw new Error(
    `cannot load the build to compare from ${dir} (${error instanceof Error ? error.message : String(error)}); copy a build of @reactor/host there first — inside packages/host, so its dependencies resolve: cp -r packages/host/dist packages/host/dist-before`,
    { cause: error },
  );
}
const tools = argNumber('tools', 100);
const sdk = argFlag('telemetry') ? droppingTelemetry() : undefined;
const telemetry = sdk ? { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider } : undefined;
const middleware = argFlag('middleware');
const then = await reactorApp(tools, { sessions: false, middleware, path: BEFORE_PATH, ...(telemetry ? { telemetry } : {}) }, before);
const now = await reactorApp(tools, { sessions: false, middleware, ...(telemetry ? { telemetry } : {}) });

async function spans(res: ServerResponse): Promise<void> {
  await sdk?.flush();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(sdk?.exportedSpans() ?? 0));
}

await announce(
  createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    if (url === SPANS_PATH) return void spans(res);
    return url.startsWith(BEFORE_PATH) ? then(req, res) : now(req, res);
  }),
);
