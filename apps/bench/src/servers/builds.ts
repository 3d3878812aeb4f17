/**
 * Server process: two builds of Reactor in one process, for `compare.ts` —
 * the build in `--before <dir>` (a copy of `@reactor/host`'s `dist`) at
 * `/before/mcp`, this workspace's at `/mcp`, each serving the catalogue
 * (`--tools N`). One process, so both builds meet the same machine at the
 * same moments: the comparison reads each one's share of the process's CPU.
 */
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BEFORE_PATH, reactorApp, type HostModule } from '../frameworks/reactor.js';
import { announce, argNumber, argString } from './child.js';

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
const then = await reactorApp(tools, { sessions: false, path: BEFORE_PATH }, before);
const now = await reactorApp(tools, { sessions: false });
await announce(createServer((req, res) => ((req.url ?? '').startsWith(`${BEFORE_PATH}`) ? then(req, res) : now(req, res))));
