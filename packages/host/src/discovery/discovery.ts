/**
 * Discovery: the extensions an application has installed, read from the
 * `reactorMcp` field of its dependencies' package.json files without importing
 * any of their code. Every entry is deferred: the registry imports it at
 * registration, or — when it is held — only when it wakes.
 *
 * Packages are located by walking up `node_modules/<name>/package.json` from
 * the application, never through a package's `exports` map (which may hide
 * package.json), and through `realpath`, so pnpm's isolated symlinked layout and
 * hoisted npm/yarn layouts both work and a module resolves its own dependencies
 * from where it really lives.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import semver from 'semver';
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';
import { adoptedExtensions } from './adoptField.js';
import { isExtension, type DeferredExtension, type McpExtension, type PluginManifest } from '../contract/extension.js';
import { createStderrLogger, type Logger } from '../kernel/logger.js';
import { formatPath, parseReactorMcpField, type ReactorMcpEntry } from './reactorMcpField.js';
import { compareCodePoints } from '../selection/selection.js';
import { HOST_VERSION } from '../kernel/version.js';

/** Options of {@link loadExtensions}. */
export interface LoadExtensionsOptions {
  /** The application's directory (holding its package.json). Default: the nearest at or above the working directory. */
  readonly root?: string;
  /** Load only these extensions (the reproducible surface). A name not installed is an error naming what is. */
  readonly names?: readonly string[];
  /** Where skipped packages are reported. Default: JSON lines to stderr at `warn`. */
  readonly logger?: Logger;
  /**
   * Watch mode only: a number distinguishing this load from earlier ones, so
   * each extension module (and the modules it imports inside its package) is
   * imported afresh instead of from Node's module cache.
   */
  readonly reload?: number;
}

/** The package.json fields discovery reads. */
interface PackageJson {
  name?: unknown;
  version?: unknown;
  description?: unknown;
  dependencies?: unknown;
  devDependencies?: unknown;
  optionalDependencies?: unknown;
  peerDependencies?: unknown;
  reactorMcp?: unknown;
}

const HOST_PACKAGE = '@reactor/host';
const FIELD_HINT = 'see "Discovery" in the @reactor/host README';

/**
 * Reads the application's `dependencies` and `optionalDependencies`, keeps the
 * packages with a `reactorMcp` field, checks each one's host range, and returns
 * one deferred entry per declared extension, sorted by extension name. A package
 * that cannot be found, read or validated comes back as an entry with `error`
 * set, so the host reports it instead of crashing.
 */
export async function loadExtensions(options: LoadExtensionsOptions = {}): Promise<DeferredExtension[]> {
  const logger = options.logger ?? createStderrLogger('warn');
  const root = options.root === undefined ? await findAppRoot(process.cwd()) : path.resolve(options.root);
  const app = await readPackageJson(path.join(root, 'package.json'), `application at ${root}`);
  const required = dependencyNames(app.dependencies, 'dependencies', root);
  const optional = dependencyNames(app.optionalDependencies, 'optionalDependencies', root);
  const names = [...new Set([...required, ...optional])].sort(compareCodePoints);
  const found = await Promise.all(names.map((name) => discoverPackage(name, root, !required.includes(name), logger, options.reload)));
  // The application's own `reactorMcp.adopt` entries: existing MCP servers adopted with no code.
  const appId = `${typeof app.name === 'string' ? app.name : path.basename(root)}@${typeof app.version === 'string' ? app.version : '?'}`;
  found.push(adoptedExtensions(app.reactorMcp, root, appId, logger));
  await warnDevOnly(app, names, root, logger);
  const entries = found.flat().sort((a, b) => compareCodePoints(a.manifest.name, b.manifest.name) || compareCodePoints(a.package, b.package));
  return options.names === undefined ? entries : pick(entries, options.names, root, logger);
}

/**
 * An extension listed only in `devDependencies` is not served (what an
 * application serves must be what it ships), which otherwise shows as
 * "serving 0 extensions" with no hint: say which and where to move it.
 * Reads only those packages' package.json files.
 */
async function warnDevOnly(app: PackageJson, served: readonly string[], root: string, logger: Logger): Promise<void> {
  const dev = app.devDependencies !== null && typeof app.devDependencies === 'object' ? Object.keys(app.devDependencies) : [];
  for (const name of dev.filter((n) => !served.includes(n)).sort(compareCodePoints)) {
    const dir = await locatePackage(name, root).catch(() => undefined);
    if (dir === undefined) continue;
    const pkg = (await readFile(path.join(dir, 'package.json'), 'utf8').then((text) => JSON.parse(text) as PackageJson).catch(() => undefined));
    if (pkg?.reactorMcp === undefined) continue;
    logger.warn(
      { package: name, code: ErrorCodes.PACKAGE_INVALID },
      `package "${name}" declares Reactor MCP extensions but is listed only in devDependencies of ${path.join(root, 'package.json')}, so it is not served; hint: move it to "dependencies" (npm install --save ${name} / pnpm add ${name})`,
    );
  }
}

/** The nearest directory at or above `from` that holds a package.json. */
export async function findAppRoot(from: string): Promise<string> {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (await isFile(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) {
      throw new ReactorError(ErrorCodes.PACKAGE_INVALID, {
        subject: `application at ${path.resolve(from)}`,
        problem: 'has no package.json in this directory or any above it',
        hint: 'run the command from your application\'s directory or pass --root <dir> (in code: loadExtensions({ root }))',
      });
    }
  }
}

/** Locates a package by walking up `node_modules/<name>` from `root`; its real directory, or undefined. */
export async function locatePackage(name: string, root: string): Promise<string | undefined> {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', ...name.split('/'));
    if (await isFile(path.join(candidate, 'package.json'))) return await realpath(candidate);
    if (path.dirname(dir) === dir) return undefined;
  }
}

async function discoverPackage(name: string, root: string, optional: boolean, logger: Logger, reload: number | undefined): Promise<DeferredExtension[]> {
  const dir = await locatePackage(name, root);
  if (dir === undefined) {
    if (optional) {
      logger.debug({ package: name }, `optional dependency "${name}" is not installed; skipped`);
      return [];
    }
    return [failed(name, '0.0.0', name, new ReactorError(ErrorCodes.PACKAGE_INVALID, {
      subject: `package "${name}"`,
      problem: `is listed in the dependencies of ${path.join(root, 'package.json')} but is not installed`,
      hint: 'install the application\'s dependencies (pnpm install / npm install)',
    }), true)];
  }
  let pkg: PackageJson;
  try {
    pkg = await readPackageJson(path.join(dir, 'package.json'), `package "${name}"`);
  } catch (error) {
    return [failed(name, '0.0.0', name, error as Error, true)];
  }
  if (pkg.reactorMcp === undefined) return [];
  const version = typeof pkg.version === 'string' ? pkg.version : '';
  const id = `${name}@${version || '?'}`;
  if (semver.valid(version) === null) {
    return [failed(name, '0.0.0', id, new ReactorError(ErrorCodes.PACKAGE_INVALID, {
      subject: `package ${id}`,
      problem: 'its package.json field "version" is invalid',
      expected: 'a semver version such as "1.0.0"',
      received: describeValue(pkg.version),
      hint: FIELD_HINT,
    }), true)];
  }
  let fieldEntries;
  try {
    fieldEntries = parseReactorMcpField(pkg.reactorMcp, id);
  } catch (error) {
    return [failed(name, version, id, error as Error, true)];
  }
  let host: string | undefined;
  let hostError: ReactorError | undefined;
  try {
    host = hostRange(pkg.peerDependencies, id);
  } catch (error) {
    hostError = error as ReactorError;
  }
  if (host === undefined && hostError === undefined) {
    logger.warn({ package: id }, `package ${id} declares extensions but no peerDependencies["${HOST_PACKAGE}"]; its compatibility is not checked`);
  }
  const description = typeof pkg.description === 'string' ? pkg.description : undefined;
  return await Promise.all(fieldEntries.map(async ({ name: extension, entry, error }) => {
    if (error !== undefined || entry === undefined) return failed(extension, version, id, error);
    const manifest = manifestOf(extension, version, entry, host, description);
    const problem = hostError ?? incompatibility(manifest, id) ?? (await missingModule(extension, id, dir, entry));
    return {
      kind: 'deferred' as const,
      manifest,
      ...(entry.toolsets === undefined ? {} : { toolsets: entry.toolsets }),
      package: id,
      load: () => importExtension(dir, entry, reload),
      ...(problem === undefined ? {} : { error: problem }),
    };
  }));
}

function manifestOf(name: string, version: string, entry: ReactorMcpEntry, host: string | undefined, description: string | undefined): PluginManifest {
  const optional = {
    title: entry.title,
    description: entry.description ?? description,
    activationEvents: entry.activationEvents,
    deactivationEvents: entry.deactivationEvents,
    dependencies: entry.dependencies,
    tenants: entry.tenants,
    host,
  };
  return { name, version, ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)) };
}

/** The `@reactor/host` peer range; a workspace link (`workspace:*`, `workspace:^`) is this very host, so it sets none. */
function hostRange(peers: unknown, id: string): string | undefined {
  const raw = typeof peers === 'object' && peers !== null ? (peers as Record<string, unknown>)[HOST_PACKAGE] : undefined;
  if (raw === undefined) return undefined;
  let range: unknown = raw;
  if (typeof raw === 'string' && raw.startsWith('workspace:')) {
    const linked = raw.slice('workspace:'.length);
    if (['', '*', '^', '~'].includes(linked)) return undefined;
    range = linked;
  }
  if (typeof range === 'string' && semver.validRange(range) !== null) return range;
  throw new ReactorError(ErrorCodes.PACKAGE_INVALID, {
    subject: `package ${id}`,
    problem: `its package.json field "${formatPath(['peerDependencies', HOST_PACKAGE])}" is invalid`,
    expected: 'a semver range such as "^1.0.0"',
    received: describeValue(raw),
    hint: FIELD_HINT,
  });
}

function incompatibility(manifest: PluginManifest, id: string): ReactorError | undefined {
  if (manifest.host === undefined || semver.satisfies(HOST_VERSION, manifest.host, { includePrerelease: true })) return undefined;
  return new ReactorError(ErrorCodes.EXTENSION_INCOMPATIBLE, {
    subject: `extension "${manifest.name}" (${id})`,
    problem: `does not support this version of ${HOST_PACKAGE} (its peerDependencies["${HOST_PACKAGE}"] is "${manifest.host}")`,
    expected: `a host in ${manifest.host}`,
    received: `${HOST_PACKAGE}@${HOST_VERSION}`,
    hint: 'install a version of the extension built for this host, or upgrade the host',
    extension: manifest.name,
  });
}

/** Checked at discovery, so a held extension whose module is missing is reported at start-up, not when it wakes. */
async function missingModule(extension: string, id: string, dir: string, entry: ReactorMcpEntry): Promise<ReactorError | undefined> {
  if (await isFile(path.resolve(dir, entry.module))) return undefined;
  return new ReactorError(ErrorCodes.LOAD_FAILED, {
    subject: `extension "${extension}" (${id})`,
    problem: `its module "${entry.module}" does not exist in ${dir}`,
    hint: 'build the package, or fix "module" in its package.json reactorMcp field',
    extension,
  });
}

/**
 * Imports an extension's module and makes the extension: the export (default
 * `"default"`) may be an extension object, a class (constructed with no
 * arguments) or a factory (called, and awaited).
 */
export async function importExtension(dir: string, entry: ReactorMcpEntry, reload?: number): Promise<McpExtension> {
  const url = pathToFileURL(path.resolve(dir, entry.module));
  if (reload !== undefined) {
    // A fresh module instance; watch/versionHooks.ts carries the query to the package's own imports.
    url.searchParams.set('reactor-watch', String(reload));
    url.searchParams.set('reactor-root', dir);
  }
  const mod = (await import(url.href)) as Record<string, unknown>;
  const name = entry.export ?? 'default';
  const value = pickExport(mod, name);
  if (value === undefined) {
    const exported = Object.keys(mod).filter((k) => k !== 'module.exports');
    throw new Error(`module "${entry.module}" has no export "${name}" (it exports ${exported.length === 0 ? 'nothing' : exported.map((k) => `"${k}"`).join(', ')})`);
  }
  if (typeof value !== 'function') return value as McpExtension;
  const fn = value as (new () => unknown) & (() => unknown);
  // `class{` (no space) is what minifiers emit: a word boundary, not a space, ends the keyword.
  return (/^class\b/.test(Function.prototype.toString.call(fn)) ? new fn() : await fn()) as McpExtension;
}

/**
 * An ES module's export, or a CommonJS module's: Node gives `module.exports` as
 * the default export, and a compiled `exports.default` (esModule interop) sits
 * one level down.
 */
function pickExport(mod: Record<string, unknown>, name: string): unknown {
  const direct = mod[name];
  if (direct !== undefined) return name === 'default' ? unwrapInterop(direct) : direct;
  const cjs = mod.default;
  if ((typeof cjs === 'object' || typeof cjs === 'function') && cjs !== null) return (cjs as Record<string, unknown>)[name];
  return undefined;
}

function unwrapInterop(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || isExtension(value)) return value;
  const interop = value as { __esModule?: unknown; default?: unknown };
  return interop.__esModule === true && interop.default !== undefined ? interop.default : value;
}

function pick(entries: DeferredExtension[], names: readonly string[], root: string, logger: Logger): DeferredExtension[] {
  const wanted = new Set(names);
  // Package-level failures carry the package's name, not an extension's: they can
  // hide the extension asked for, so they are named in the error, never served.
  const unreadable = entries.filter((e) => packageFailures.has(e));
  const installed = entries.filter((e) => !unreadable.includes(e)).map((e) => e.manifest.name);
  const missing = [...wanted].filter((n) => !installed.includes(n));
  if (missing.length > 0) {
    throw new ReactorError(ErrorCodes.EXTENSION_NOT_FOUND, {
      subject: `extension${missing.length > 1 ? 's' : ''} ${missing.map((n) => `"${n}"`).join(', ')}`,
      problem: `${missing.length > 1 ? 'are' : 'is'} not installed in ${root}`,
      expected: installed.length === 0 ? 'an installed extension (none found)' : `one of ${[...new Set(installed)].map((n) => `"${n}"`).join(', ')}`,
      hint: `install the package that provides it and list it in the application's dependencies${unreadable.length > 0 ? `; these packages could not be read: ${unreadable.map((e) => `${e.package} (${errorMessage(e.error)})`).join('; ')}` : ''}`,
    });
  }
  for (const e of unreadable) logger.warn({ package: e.package, code: (e.error as ReactorError).code }, errorMessage(e.error));
  return entries.filter((e) => wanted.has(e.manifest.name) && !unreadable.includes(e));
}

/** Entries standing for a whole package that failed (named after the package, since its extensions are unknown). */
const packageFailures = new WeakSet<DeferredExtension>();

function failed(name: string, version: string, id: string, error: Error, wholePackage = false): DeferredExtension {
  const entry: DeferredExtension = { kind: 'deferred', manifest: { name, version }, package: id, load: () => Promise.reject(error), error };
  if (wholePackage) packageFailures.add(entry);
  return entry;
}

async function readPackageJson(file: string, subject: string): Promise<PackageJson> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ReactorError(ErrorCodes.PACKAGE_INVALID, { subject, problem: `cannot read ${file} (${errorMessage(error)})`, hint: 'check the file exists and is readable', cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ReactorError(ErrorCodes.PACKAGE_INVALID, { subject, problem: `${file} is not valid JSON (${errorMessage(error)})`, hint: 'fix the JSON syntax', cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ReactorError(ErrorCodes.PACKAGE_INVALID, { subject, problem: `${file} is not a package.json`, expected: 'a JSON object', received: describeValue(parsed) });
  }
  return parsed;
}

function dependencyNames(value: unknown, field: string, root: string): string[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ReactorError(ErrorCodes.PACKAGE_INVALID, {
      subject: `application at ${root}`,
      problem: `its package.json field "${field}" is invalid`,
      expected: 'an object mapping package names to versions',
      received: describeValue(value),
    });
  }
  return Object.keys(value);
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
