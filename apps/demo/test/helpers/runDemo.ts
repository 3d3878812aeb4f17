/**
 * The demo as the end-to-end tests run it: the command main.ts runs, with this
 * app's package.json for discovery, on a free loopback port, silent; and a real
 * MCP client connected to one of its URLs.
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildHost, loadExtensions, runCommand, silentLogger, type McpExtension, type RunningCommand } from '@reactor/host';
import { applyDemoDefaults, demoArgs, DEMO_INSTRUCTIONS } from '../../src/demo.js';

const appRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts the demo with `env` added to the command's environment, and `extra`
 * extensions (a test's own) served beside the discovered ones. Throws when it
 * does not start.
 */
export async function runDemo(env: Record<string, string>, extra: readonly McpExtension[] = []): Promise<RunningCommand> {
  const started = await runCommand(demoArgs(['--port', '0', '--log-level', 'silent']), env, {
    loadExtensions: (options) => loadExtensions({ ...options, root: appRoot }),
    buildHost: (extensions, options) => buildHost([...extensions, ...extra], { ...options, instructions: DEMO_INSTRUCTIONS }),
    createLogger: () => silentLogger,
    // The test process keeps its own signal handling.
    signals: { once: () => process, removeListener: () => process },
    exit: () => {},
  });
  if (!started) throw new Error('the demo did not start');
  return started;
}

/**
 * The demo as main.ts starts it (its defaults: kernels on an embedded Jupyter
 * server, `REACTOR_JUPYTER=auto`), over a test's own spaces root and benchmarks
 * data folder. The extensions read `process.env` when they wake, so the
 * settings go there as well as to the command.
 */
export async function runDemoOver(folders: { readonly spaces: string; readonly benchmarks: string }, extra: readonly McpExtension[] = []): Promise<RunningCommand> {
  delete process.env.REACTOR_JUPYTER;
  delete process.env.REACTOR_JUPYTER_URL;
  applyDemoDefaults(process.env);
  process.env.REACTOR_SPACES_ROOT = folders.spaces;
  process.env.REACTOR_BENCHMARKS_DATA = folders.benchmarks;
  return await runDemo({ REACTOR_BENCHMARKS_DATA: folders.benchmarks }, extra);
}

/** A real client (`name`) connected to the demo at `query` (`?kernels`, `/only/spaces`…). */
export async function connectClient(running: RunningCommand, query: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}${query}`)));
  return client;
}
