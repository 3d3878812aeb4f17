/**
 * Adoption from the application's package.json (`reactorMcp.adopt`), called
 * by the host when an adopted entry loads (for a held entry: when a URL first
 * asks for its toolset). The host validated the entry; this resolves it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger, McpExtension } from '@reactor/host';
import { adoptServer, watchingArgv, type AdoptableServer } from './adoptServer.js';
import { AdoptError, AdoptErrorCodes, messageOf } from './errors.js';
import type { AdoptOptions } from './options.js';
import type { AdoptionNote } from './recording.js';
import { adoptProcess, adoptRemote } from './proxy/adoptProxy.js';

interface CommonEntry {
  readonly toolset?: string;
  readonly default?: boolean;
  readonly title?: string;
  readonly description?: string;
  readonly instructions?: string;
  readonly prefix?: string;
  readonly rename?: Record<string, string>;
  readonly include?: string[];
  readonly exclude?: string[];
  readonly from?: string;
}

/** One entry of `reactorMcp.adopt`: a module, a command or a URL. */
export type AdoptEntry =
  | (CommonEntry & { readonly module: string; readonly export?: string })
  | (CommonEntry & { readonly command: string; readonly args?: string[]; readonly env?: Record<string, string>; readonly cwd?: string; readonly perConnection?: boolean })
  | (CommonEntry & { readonly url: string; readonly headers?: Record<string, string>; readonly perConnection?: boolean });

/** Makes the extension for one `reactorMcp.adopt` entry of the application at `root`. */
export async function adoptFromEntry(name: string, entry: AdoptEntry, context: { root: string; logger?: Logger }): Promise<McpExtension> {
  const options: AdoptOptions = {
    name,
    toolset: {
      name: entry.toolset ?? name,
      ...(entry.default !== undefined ? { default: entry.default } : {}),
      ...(entry.title !== undefined ? { title: entry.title } : {}),
      ...(entry.description !== undefined ? { description: entry.description } : {}),
      ...(entry.instructions !== undefined ? { instructions: entry.instructions } : {}),
    },
    ...(entry.default === false ? { activationEvents: [`onToolset:${entry.toolset ?? name}`] } : {}),
    ...(entry.prefix !== undefined ? { prefix: entry.prefix } : {}),
    ...(entry.rename !== undefined ? { rename: entry.rename } : {}),
    ...(entry.include !== undefined ? { include: entry.include } : {}),
    ...(entry.exclude !== undefined ? { exclude: entry.exclude } : {}),
    ...(entry.from !== undefined ? { from: entry.from } : {}),
    ...(context.logger !== undefined ? { logger: context.logger } : {}),
  };
  if ('command' in entry) {
    return await adoptProcess({
      ...options,
      command: entry.command,
      ...(entry.args !== undefined ? { args: entry.args } : {}),
      ...(entry.env !== undefined ? { env: entry.env } : {}),
      cwd: path.resolve(context.root, entry.cwd ?? '.'),
      ...(entry.perConnection !== undefined ? { perConnection: entry.perConnection } : {}),
    });
  }
  if ('url' in entry) {
    return await adoptRemote({ ...options, url: entry.url, ...(entry.headers !== undefined ? { headers: entry.headers } : {}), ...(entry.perConnection !== undefined ? { perConnection: entry.perConnection } : {}) });
  }
  const file = resolveModule(name, entry.module, context.root);
  const { value: mod, readArgv } = await watchingArgv(() => import(pathToFileURL(file).href) as Promise<Record<string, unknown>>);
  const exportName = entry.export ?? 'default';
  const exported = mod[exportName] ?? (exportName !== 'default' ? (mod.default as Record<string, unknown> | undefined)?.[exportName] : undefined);
  if (exported === undefined || (typeof exported !== 'function' && typeof exported !== 'object')) {
    throw new AdoptError(AdoptErrorCodes.OPTION_INVALID, {
      subject: `adopted server "${name}" (module "${entry.module}")`,
      problem: `has no usable export "${exportName}"`,
      expected: 'a function (server) => void, a factory returning a server, or an McpServer',
      received: exported === undefined ? `exports ${Object.keys(mod).map((k) => `"${k}"`).join(', ') || 'nothing'}` : typeof exported,
      hint: 'set "export" in the reactorMcp.adopt entry to the registering function or factory',
    });
  }
  const adopted = await adoptServer(exported as AdoptableServer, { ...options, from: options.from ?? packageOf(file) ?? entry.module });
  if (readArgv) (adopted.adoption.notes as AdoptionNote[]).push({ kind: 'assumed', subject: 'process.argv', reason: 'the module read the command line when imported; it saw the host\'s arguments, not options meant for it' });
  return adopted;
}

/** A module specifier resolved from the application (a path relative to it, or a package subpath). */
function resolveModule(name: string, specifier: string, root: string): string {
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) return path.resolve(root, specifier);
  try {
    return createRequire(path.join(root, 'package.json')).resolve(specifier);
  } catch (error) {
    throw new AdoptError(AdoptErrorCodes.OPTION_INVALID, {
      subject: `adopted server "${name}" (module "${specifier}")`,
      problem: `cannot be resolved from the application at ${root} (${messageOf(error)})`,
      hint: 'install the package that provides it, and name a file its "exports" allow (or a path relative to the application)',
      cause: error,
    });
  }
}

/** `name@version` of the package a file belongs to, if any. */
function packageOf(file: string): string | undefined {
  for (let dir = path.dirname(file); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (typeof pkg.name === 'string') return `${pkg.name}@${typeof pkg.version === 'string' ? pkg.version : '?'}`;
    } catch {
      // No package.json here: look further up.
    }
  }
  return undefined;
}
