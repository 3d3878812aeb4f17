/**
 * The demo's defaults, apart from main.ts so tests can start the same server.
 */

/** What every demo server tells a model first; each toolset adds its own section. */
export const DEMO_INSTRUCTIONS =
  'Reactor MCP demo. Spaces are folders of notebooks, documents and data; benchmarks record what evaluation runs did; kernels run notebook cells on Jupyter. ' +
  'Call list_server_toolsets to see what this connection serves and how to add more (for example ?benchmarks or ?kernels).';

/**
 * The command line of the demo: its name and port, then the caller's own flags (which win).
 * A leading `--` in the caller's flags is dropped: `pnpm start -- --port 5050` passes it on
 * (pnpm 12), and after the demo's own flags it would no longer lead, so every flag behind it
 * would be refused.
 */
export function demoArgs(userArgs: readonly string[]): string[] {
  const flags = userArgs[0] === '--' ? userArgs.slice(1) : userArgs;
  return ['--name', 'reactor-demo', '--host', '127.0.0.1', '--port', '4040', ...flags];
}

/**
 * The demo's environment defaults: kernels come from an embedded Jupyter
 * Server (`REACTOR_JUPYTER=auto`) unless the caller configured a server or
 * said otherwise. Where Jupyter is not installed the kernels toolset is still
 * listed, its tools are not offered, and /healthz and /toolsets say why.
 */
export function applyDemoDefaults(env: NodeJS.ProcessEnv): void {
  if (env.REACTOR_JUPYTER === undefined && env.REACTOR_JUPYTER_URL === undefined) env.REACTOR_JUPYTER = 'auto';
}
