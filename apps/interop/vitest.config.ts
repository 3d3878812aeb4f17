import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mergeConfig, type Plugin } from 'vitest/config';
import { reactorProject } from '../../vitest.shared.js';

/**
 * The interop suite runs one line of client libraries: on Node 20, this
 * package's own dependencies (the newest release of each client that runs on
 * Node 20); on Node 22 and later, apps/interop-latest's (each client's newest
 * release). `REACTOR_INTEROP_LINE=node20|latest` overrides the choice. The
 * suite's imports of the client libraries resolve from the chosen package.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
const latest = fileURLToPath(new URL('../interop-latest/', import.meta.url));
const major = Number(process.versions.node.split('.')[0]);
const line = process.env.REACTOR_INTEROP_LINE ?? (major >= 22 ? 'latest' : 'node20');
if (line !== 'latest' && line !== 'node20') throw new Error(`REACTOR_INTEROP_LINE=${line}: expected latest or node20`);
const clientsRoot = line === 'latest' ? latest : here;
if (line === 'latest' && !existsSync(`${latest}node_modules/@ai-sdk/mcp`)) {
  throw new Error(`the latest line's clients are not installed in ${latest}node_modules (they are optional dependencies that need Node 22+): run pnpm install with Node ${process.versions.node}`);
}

/** The client libraries (and what their tools are handed to) whose line differs. */
const CLIENTS = /^(@ai-sdk\/mcp|@langchain\/mcp-adapters|@langchain\/core|@mastra\/mcp|@mastra\/core|@openai\/agents|mcp-use|mcp-remote|@modelcontextprotocol\/sdk|@modelcontextprotocol\/client)(\/.*)?$/;

function clientsFrom(root: string): Plugin {
  const anchor = `${root}package.json`;
  return {
    name: 'reactor-interop-line',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer?.startsWith(`${here}test/`) || !CLIENTS.test(source)) return null;
      return await this.resolve(source, anchor, { ...options, skipSelf: true });
    },
  };
}

export default mergeConfig(reactorProject('@reactor/interop'), {
  plugins: line === 'latest' ? [clientsFrom(latest)] : [],
  test: {
    env: { REACTOR_INTEROP_CLIENTS: clientsRoot, REACTOR_INTEROP_LINE: line },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // In CI, a report per Node line, which .ci/summary.mjs adds to the closing line.
    reporters: process.env.CI && process.env.REACTOR_VITEST_REPORT ? ['default', ['json', { outputFile: process.env.REACTOR_VITEST_REPORT }]] : ['default'],
  },
});
