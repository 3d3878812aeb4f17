/**
 * The application's `reactorMcp.adopt` field: existing MCP servers adopted
 * with no code — an SDK-written module (`module` + `export`), a command
 * speaking MCP over stdio (`command`, `args`, `env`, `cwd`) or a Streamable
 * HTTP endpoint (`url`, `headers`). Each entry becomes a deferred extension:
 * an opt-in one (`"default": false`) is held, so its module is not imported
 * and its command not spawned until a URL asks for its toolset.
 *
 * Adoption itself lives in the optional package `@reactor/adopt` (it brings
 * the v1 SDK and a zod 3 converter the host does not need); it is imported
 * only when an adopted entry loads, from the application first, and a clear
 * error names the package to install when it is missing.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';
import { EXTENSION_NAME_PATTERN, type DeferredExtension, type McpExtension } from '../contract/extension.js';
import type { Logger } from '../kernel/logger.js';
import { formatPath } from './reactorMcpField.js';
import { compareCodePoints } from '../selection/selection.js';
import { TOOLSET_NAME_PATTERN, type Toolset } from '../contract/toolset.js';

const ADOPT_PACKAGE = '@reactor/adopt';
const HINT = 'see docs/adopting-a-server.md: "reactorMcp": { "adopt": { "everything": { "module": "…", "export": "createServer", "default": false } } }';

const strings = z.array(z.string({ error: 'a string' }), { error: 'an array of strings' });
const common = {
  toolset: z.string({ error: 'a toolset name' }).regex(TOOLSET_NAME_PATTERN, 'a toolset name of letters, digits, ".", "_", ":" or "-"').optional(),
  default: z.boolean({ error: 'a boolean' }).optional(),
  title: z.string({ error: 'a string' }).optional(),
  description: z.string({ error: 'a string' }).optional(),
  instructions: z.string({ error: 'a string' }).optional(),
  prefix: z.string({ error: 'a string' }).regex(/^[A-Za-z0-9._-]*$/, 'characters allowed in tool names').optional(),
  rename: z.record(z.string(), z.string({ error: 'a tool name' }), { error: 'an object mapping original tool names to new ones' }).optional(),
  include: strings.optional(),
  exclude: strings.optional(),
  from: z.string({ error: 'a string such as "package@1.0.0"' }).optional(),
};
const moduleEntry = z.strictObject({ module: z.string({ error: 'a module specifier' }).min(1, 'a module specifier'), export: z.string({ error: 'an export name' }).min(1).optional(), ...common });
const commandEntry = z.strictObject({
  command: z.string({ error: 'a command' }).min(1, 'a command such as "node"'),
  args: strings.optional(),
  env: z.record(z.string(), z.string({ error: 'a string' }), { error: 'an object of environment variables' }).optional(),
  cwd: z.string({ error: 'a directory' }).optional(),
  perConnection: z.boolean({ error: 'a boolean' }).optional(),
  ...common,
});
const urlEntry = z.strictObject({
  url: z.url({ error: 'an absolute http(s) URL' }),
  headers: z.record(z.string(), z.string({ error: 'a string' }), { error: 'an object of headers' }).optional(),
  perConnection: z.boolean({ error: 'a boolean' }).optional(),
  ...common,
});

/** One entry of `reactorMcp.adopt`, validated. `@reactor/adopt` reads the same shape. */
export type AdoptEntry = z.infer<typeof moduleEntry> | z.infer<typeof commandEntry> | z.infer<typeof urlEntry>;

/** What `@reactor/adopt` offers the host for the field. */
export interface AdoptModule {
  adoptFromEntry(name: string, entry: AdoptEntry, context: { root: string; logger?: Logger }): Promise<McpExtension>;
}

/**
 * The deferred extensions of an application's `reactorMcp.adopt` field (none
 * when it has no such field). One invalid entry costs only itself: it comes
 * back as an entry with `error` set, so the host reports it.
 */
export function adoptedExtensions(field: unknown, root: string, app: string, logger: Logger): DeferredExtension[] {
  const adopt = typeof field === 'object' && field !== null ? (field as { adopt?: unknown }).adopt : undefined;
  if (adopt === undefined) return [];
  if (typeof adopt !== 'object' || adopt === null || Array.isArray(adopt)) {
    return [failedEntry('adopt', app, invalid('application', ['reactorMcp', 'adopt'], app, 'an object mapping extension names to adopted servers', adopt))];
  }
  return Object.keys(adopt).sort(compareCodePoints).map((name) => {
    const raw = (adopt as Record<string, unknown>)[name];
    const at = ['reactorMcp', 'adopt', name];
    if (!EXTENSION_NAME_PATTERN.test(name)) return failedEntry(name, app, invalid(`adopted server ${JSON.stringify(name)}`, at, app, 'a kebab-case name such as "everything"', name));
    const shape = typeof raw === 'object' && raw !== null ? ('module' in raw ? moduleEntry : 'command' in raw ? commandEntry : 'url' in raw ? urlEntry : undefined) : undefined;
    if (!shape) return failedEntry(name, app, invalid(`adopted server "${name}"`, at, app, 'an object with one of "module", "command" or "url"', raw));
    const parsed = shape.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const keys = issue?.code === 'unrecognized_keys' ? issue.keys : [];
      const where = [...at, ...(issue?.path ?? []).map(String), ...keys.slice(0, 1)];
      const received = where.slice(3).reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined), raw);
      return failedEntry(name, app, invalid(`adopted server "${name}"`, where, app, keys.length > 0 ? 'no such key' : (issue?.message ?? 'a valid value'), received));
    }
    return deferredAdoption(name, parsed.data, root, app, logger);
  });
}

function deferredAdoption(name: string, entry: AdoptEntry, root: string, app: string, logger: Logger): DeferredExtension {
  const toolset: Toolset = {
    name: entry.toolset ?? name,
    ...(entry.default !== undefined ? { default: entry.default } : {}),
    ...(entry.title !== undefined ? { title: entry.title } : {}),
    ...(entry.description !== undefined ? { description: entry.description } : {}),
    ...(entry.instructions !== undefined ? { instructions: entry.instructions } : {}),
  };
  return {
    kind: 'deferred',
    manifest: {
      name,
      // The adopted package's version when it is known (a module entry); a command or URL says none.
      version: adoptedVersion(entry, root, app) ?? '0.0.0',
      description: `adopted: ${'module' in entry ? entry.module : 'command' in entry ? entry.command : entry.url}`,
      // Opt-in servers are held: nothing is imported or spawned until their toolset is asked for.
      ...(entry.default === false ? { activationEvents: [`onToolset:${toolset.name}`] } : {}),
    },
    toolsets: [toolset],
    // The package that declared it (`name@version`, as for any discovered extension): the application.
    package: app,
    load: async () => (await importAdopt(name, root, app)).adoptFromEntry(name, entry, { root, logger }),
  };
}

/**
 * The version of the package a module entry adopts, read from its package.json where
 * Node would find it from the application (`node_modules/<name>`, walking up; no
 * `exports` map involved, nothing imported); the application's own version for a
 * module of its own (a relative path). Undefined when unknown.
 */
function adoptedVersion(entry: AdoptEntry, root: string, app: string): string | undefined {
  if (!('module' in entry)) return undefined;
  const specifier = entry.module;
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) return /@([^@]+)$/.exec(app)?.[1];
  const segments = specifier.split('/');
  const name = (specifier.startsWith('@') ? segments.slice(0, 2) : segments.slice(0, 1)).join('/');
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')) as { version?: unknown };
      return typeof pkg.version === 'string' ? pkg.version : undefined;
    } catch {
      // Not installed here (or unreadable): look further up.
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * `@reactor/adopt`, resolved as Node resolves it: from the application first
 * (it is the app's dependency), else from beside the host (an optional peer).
 */
export async function importAdopt(name: string, root: string, app: string, resolve: (from: string) => string = (from) => createRequire(from).resolve(ADOPT_PACKAGE)): Promise<AdoptModule> {
  const failures: string[] = [];
  for (const from of [path.join(root, 'package.json'), fileURLToPath(import.meta.url)]) {
    let resolved: string;
    try {
      resolved = resolve(from);
    } catch (error) {
      failures.push(errorMessage(error).split('\n')[0] ?? '');
      continue;
    }
    return (await import(pathToFileURL(resolved).href)) as AdoptModule;
  }
  throw new ReactorError(ErrorCodes.LOAD_FAILED, {
    subject: `adopted server "${name}" (${app} reactorMcp.adopt)`,
    problem: `needs the package "${ADOPT_PACKAGE}", which is not installed (${failures[0] ?? 'not found'})`,
    hint: `install it in the application: pnpm add ${ADOPT_PACKAGE} (or npm i ${ADOPT_PACKAGE})`,
    extension: name,
  });
}

function invalid(subject: string, at: readonly string[], app: string, expected: string, received: unknown): ReactorError {
  return new ReactorError(ErrorCodes.PACKAGE_INVALID, {
    subject: `${subject} (${app})`,
    problem: `its package.json field "${formatPath([...at])}" is invalid`,
    expected,
    received: describeValue(received),
    hint: HINT,
  });
}

function failedEntry(name: string, app: string, error: Error): DeferredExtension {
  return { kind: 'deferred', manifest: { name: EXTENSION_NAME_PATTERN.test(name) ? name : 'adopt', version: '0.0.0' }, package: app, load: () => Promise.reject(error), error };
}
