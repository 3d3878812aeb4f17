#!/usr/bin/env node
/**
 * The Reactor MCP demo: the `reactor-mcp-server` command with demo defaults.
 * Its extensions come from discovery — this package's dependencies
 * (`@reactor/ext-spaces`, `@reactor/ext-benchmarks`, `@reactor/ext-kernels`) — and nothing
 * here names them. Kernels default to an embedded Jupyter Server (REACTOR_JUPYTER=auto).
 *
 *   pnpm start                      # http://127.0.0.1:4040/mcp
 *   pnpm start -- --port 5050       # any flag of reactor-mcp-server
 */
import { fileURLToPath } from 'node:url';
import { buildHost, loadExtensions, runCommand } from '@reactor/host';
import { applyDemoDefaults, demoArgs, DEMO_INSTRUCTIONS } from './demo.js';

// Discovery reads this app's package.json, wherever the process was started from.
const appRoot = fileURLToPath(new URL('..', import.meta.url));

// The extensions read their environment when they wake: set the demo's defaults first.
applyDemoDefaults(process.env);

try {
  await runCommand(demoArgs(process.argv.slice(2)), process.env, {
    loadExtensions: (options) => loadExtensions({ ...options, root: appRoot }),
    buildHost: (extensions, options) => buildHost(extensions, { ...options, instructions: DEMO_INSTRUCTIONS }),
    // The catalog page (@reactor/catalog, a dependency of this app) is found from here too.
    root: appRoot,
  });
} catch (error) {
  process.stderr.write(`reactor-demo: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
