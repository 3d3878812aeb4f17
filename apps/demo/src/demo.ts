/**
 * The demo's defaults, apart from main.ts so tests can start the same server.
 */

/** What every demo server tells a model first; each toolset adds its own section. */
export const DEMO_INSTRUCTIONS =
  'Reactor MCP demo. Spaces are folders of notebooks, documents and data; benchmarks record what evaluation runs did. ' +
  'Call list_server_toolsets to see what this connection serves and how to add more (for example ?benchmarks).';

/** The command line of the demo: its name and port, then the caller's own flags (which win). */
export function demoArgs(userArgs: readonly string[]): string[] {
  return ['--name', 'reactor-demo', '--host', '127.0.0.1', '--port', '4040', ...userArgs];
}
