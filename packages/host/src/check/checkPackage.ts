/**
 * `checkPackage(dir)`: lints an extension package as discovery will read it —
 * its `reactorMcp` field against what the package really exports (each module
 * exists and exports an extension, which declares the same name, activation
 * events and toolsets; held extensions declare their toolsets so they are
 * listed without importing), its `@reactor/host` peer range, and then every
 * extension through {@link checkExtension}. Imports the package's modules but
 * starts nothing (`onStart` is never called).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { importExtension } from '../discovery/discovery.js';
import { describeValue, errorMessage } from '../kernel/errors.js';
import { isExtension, type McpExtension } from '../contract/extension.js';
import { parseReactorMcpField, type ReactorMcpEntry } from '../discovery/reactorMcpField.js';
import type { Toolset } from '../contract/toolset.js';
import { HOST_VERSION } from '../kernel/version.js';
import { checkExtension, type CheckExtensionOptions, type ExtensionCheck } from './checkExtension.js';
import { FindingCodes, type CheckFinding, type FindingCode } from './findings.js';

/** What {@link checkPackage} found. */
export interface PackageCheck {
  /** `name@version` from package.json (or the directory when unreadable). */
  readonly package: string;
  readonly dir: string;
  /** False when any finding is an error. */
  readonly ok: boolean;
  /** Every finding: the package's own, then each extension's. */
  readonly findings: readonly CheckFinding[];
  /** Each extension that could be imported, checked. */
  readonly extensions: readonly ExtensionCheck[];
}

const HOST = '@reactor/host';

/** Checks the extension package in `dir` (its package.json, modules and extensions). Never throws for a bad package. */
export async function checkPackage(dir: string, options: CheckExtensionOptions = {}): Promise<PackageCheck> {
  const root = path.resolve(dir);
  const findings: CheckFinding[] = [];
  const extensions: ExtensionCheck[] = [];
  const add = (severity: CheckFinding['severity'], code: FindingCode, subject: string, message: string, hint?: string) =>
    findings.push({ severity, code, subject, message, ...(hint === undefined ? {} : { hint }) });
  const done = (id: string): PackageCheck => {
    const all = [...findings, ...extensions.flatMap((e) => e.findings)];
    return { package: id, dir: root, ok: !all.some((f) => f.severity === 'error'), findings: all, extensions };
  };

  let pkg: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`it holds ${describeValue(parsed)}, not an object`);
    pkg = parsed as Record<string, unknown>;
  } catch (error) {
    add('error', FindingCodes.PACKAGE_INVALID, `package at ${root}`, `its package.json cannot be read: ${errorMessage(error)}`, 'run the check in (or pass) the extension package\'s directory');
    return done(root);
  }
  const id = `${typeof pkg.name === 'string' ? pkg.name : '(unnamed)'}@${typeof pkg.version === 'string' ? pkg.version : '?'}`;
  const self = `package ${id}`;
  if (typeof pkg.version !== 'string' || semver.valid(pkg.version) === null) {
    add('error', FindingCodes.PACKAGE_INVALID, self, `its "version" is not semver (${describeValue(pkg.version)})`, 'set "version": "0.1.0"');
  }
  checkHostRange(pkg, self, add);
  if (pkg.reactorMcp === undefined) {
    add('error', FindingCodes.PACKAGE_INVALID, self, 'has no "reactorMcp" field, so discovery will not see it', 'add "reactorMcp": { "extensions": { "my-ext": { "module": "./dist/index.js" } } }');
    return done(id);
  }
  let entries;
  try {
    entries = parseReactorMcpField(pkg.reactorMcp, id);
  } catch (error) {
    add('error', FindingCodes.PACKAGE_INVALID, self, errorMessage(error));
    return done(id);
  }
  for (const { name, entry, error } of entries) {
    const subject = `extension "${name}" (${id})`;
    if (error !== undefined || entry === undefined) {
      add('error', FindingCodes.PACKAGE_INVALID, subject, errorMessage(error));
      continue;
    }
    const held = (entry.activationEvents ?? []).length > 0;
    if (held && entry.toolsets === undefined) {
      add('warning', FindingCodes.HELD_UNDECLARED, subject, 'is held (activationEvents) but its reactorMcp entry declares no toolsets, so /toolsets and list_server_toolsets cannot list them until it wakes', 'declare "toolsets": [{ "name": …, "description": …, "default": false }] in its reactorMcp entry');
    }
    if (!(await isFile(path.resolve(root, entry.module)))) {
      add('error', FindingCodes.MODULE_MISSING, subject, `its module "${entry.module}" does not exist`, 'build the package first (npm run build), or fix "module" in its reactorMcp entry');
      continue;
    }
    let instance: McpExtension;
    try {
      instance = await importExtension(root, entry);
    } catch (error) {
      add('error', FindingCodes.MODULE_MISSING, subject, `its module "${entry.module}" cannot be imported: ${errorMessage(error)}`, 'fix the module, or "module"/"export" in its reactorMcp entry');
      continue;
    }
    if (!isExtension(instance)) {
      add('error', FindingCodes.MODULE_MISSING, subject, `export "${entry.export ?? 'default'}" of "${entry.module}" is not an extension (${describeValue(instance)})`, 'export defineExtension({ manifest, … }), a class or a factory');
      continue;
    }
    compareDeclarations(name, entry, instance, subject, add);
    extensions.push(await checkExtension(instance, options));
  }
  return done(id);
}

type Add = (severity: CheckFinding['severity'], code: FindingCode, subject: string, message: string, hint?: string) => void;

function checkHostRange(pkg: Record<string, unknown>, self: string, add: Add): void {
  const field = (key: string) => (typeof pkg[key] === 'object' && pkg[key] !== null ? (pkg[key] as Record<string, unknown>)[HOST] : undefined);
  const peer = field('peerDependencies');
  if (field('dependencies') !== undefined) {
    add('error', FindingCodes.HOST_RANGE, self, `lists ${HOST} in "dependencies": the application would get a second copy of the host, whose registry never sees this extension`, `move it to "peerDependencies" (and "devDependencies" to build and test)`);
  }
  if (peer === undefined) {
    add('error', FindingCodes.HOST_RANGE, self, `declares no peerDependencies["${HOST}"], so discovery cannot check which hosts it supports`, `add "peerDependencies": { "${HOST}": "^${semver.major(HOST_VERSION)}.${semver.minor(HOST_VERSION)}.0" }`);
    return;
  }
  if (typeof peer === 'string' && peer.startsWith('workspace:')) return; // this very workspace's host
  if (typeof peer !== 'string' || semver.validRange(peer) === null) {
    add('error', FindingCodes.HOST_RANGE, self, `its peerDependencies["${HOST}"] is not a semver range (${describeValue(peer)})`, `write a range such as "^${HOST_VERSION}"`);
    return;
  }
  if (!semver.satisfies(HOST_VERSION, peer, { includePrerelease: true })) {
    add('error', FindingCodes.HOST_RANGE, self, `its peerDependencies["${HOST}"] ("${peer}") excludes the host it is checked with (${HOST_VERSION}); discovery would refuse it`, 'widen the range, or check with the host version you target');
  }
  if (field('devDependencies') === undefined) {
    add('warning', FindingCodes.HOST_RANGE, self, `has ${HOST} only as a peer, not in "devDependencies", so its own build and tests cannot import it`, `npm i -D ${HOST}`);
  }
}

/**
 * The same agreement the registry demands when it imports a discovered module
 * (name, activation events, toolsets with their activation flags), checked here
 * without starting a host — a start would run `onStart`.
 */
function compareDeclarations(name: string, entry: ReactorMcpEntry, instance: McpExtension, subject: string, add: Add): void {
  const hint = 'make the reactorMcp entry and the exported extension declare the same name, activationEvents and toolsets';
  if (instance.manifest?.name !== name) {
    add('error', FindingCodes.DECLARATION_MISMATCH, subject, `its module's manifest.name is ${JSON.stringify(instance.manifest?.name)}, not the reactorMcp key "${name}"`, hint);
  }
  const events = (list: readonly string[] | undefined) => `[${[...(list ?? [])].sort().join(', ')}]`;
  if (events(instance.manifest?.activationEvents) !== events(entry.activationEvents)) {
    const moduleHolds = (instance.manifest?.activationEvents ?? []).length > 0 && (entry.activationEvents ?? []).length === 0;
    add('error', moduleHolds ? FindingCodes.HELD_UNDECLARED : FindingCodes.DECLARATION_MISMATCH, subject, `its module's activationEvents ${events(instance.manifest?.activationEvents)} differ from its reactorMcp entry's ${events(entry.activationEvents)}${moduleHolds ? ': discovery would import it at start-up instead of holding it' : ''}`, hint);
  }
  if (entry.toolsets === undefined) return;
  let offered: readonly Toolset[];
  try {
    offered = typeof instance.toolsets === 'function' ? instance.toolsets() : [{ name }];
  } catch {
    return; // reported by checkExtension
  }
  const shape = (t: Toolset) => `${t.name} (default ${String(t.default ?? true)}, always ${String(t.always ?? false)}${t.scopes ? `, scopes ${[...t.scopes].sort().join(' ')}` : ''})`;
  const declared = new Map(entry.toolsets.map((t) => [t.name, shape(t)]));
  const real = new Map(offered.map((t) => [t.name, shape(t)]));
  for (const [toolset, declaredShape] of declared) {
    const realShape = real.get(toolset);
    if (realShape === undefined) add('error', FindingCodes.DECLARATION_MISMATCH, subject, `its reactorMcp entry declares toolset "${toolset}", which the module's toolsets() does not offer`, hint);
    else if (realShape !== declaredShape) add('error', FindingCodes.DECLARATION_MISMATCH, subject, `toolset "${toolset}" is declared as ${declaredShape} in reactorMcp but offered as ${realShape}`, hint);
  }
  for (const toolset of real.keys()) {
    if (!declared.has(toolset)) add('error', FindingCodes.DECLARATION_MISMATCH, subject, `its module offers toolset "${toolset}", which its reactorMcp entry does not declare`, hint);
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
