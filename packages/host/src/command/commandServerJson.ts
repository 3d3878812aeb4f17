/**
 * `reactor-mcp-server server-json`: the application's entry for the official
 * MCP registry, printed on stdout (see `serverJson.ts` for what goes in it).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandDependencies } from './commandTypes.js';
import type { CommandOptions } from './commandOptions.js';
import { findAppRoot } from '../discovery/discovery.js';
import type { Logger } from '../kernel/logger.js';
import { serverJson, type AppPackageJson } from '../discovery/serverJson.js';

/** Reads the application's package.json and its extensions' toolsets, and prints its server.json. */
export async function printServerJson(options: CommandOptions, deps: CommandDependencies, logger: Logger): Promise<void> {
  const root = deps.root ?? (await findAppRoot(process.cwd()));
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as AppPackageJson;
  const entries = await deps.loadExtensions({ logger, root, ...(options.extensions ? { names: options.extensions } : {}) });
  // The toolsets a server of this application declares; held extensions are listed from their manifests, not woken.
  const host = await deps.buildHost(entries, { name: options.name, logger });
  try {
    const json = serverJson({ pkg, toolsets: host.declaredToolsets(), registryName: options.registryName, remoteUrl: options.remoteUrl });
    deps.stdout(`${JSON.stringify(json, null, 2)}\n`);
  } finally {
    await host.stop();
  }
}
