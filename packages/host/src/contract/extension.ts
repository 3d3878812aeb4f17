/**
 * The extension contract: a plugin that *offers* things at contribution points
 * and never holds a server except inside `onServer`. Identity is structural (or
 * a string brand), never `instanceof`, since two copies of the host may load.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import semver from 'semver';
import { z } from 'zod';
import { describeValue, ErrorCodes, ReactorError } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import type { Middleware } from './middleware.js';
import type { PromptSpec, ResourceSpec } from './resource.js';
import type { Selection } from '../selection/selection.js';
import type { ToolSpec } from './tool.js';
import type { ToolExtension } from './toolExtension.js';
import type { Toolset } from './toolset.js';

/** What every extension declares about itself. */
export interface PluginManifest {
  /** Kebab-case id, unique in a host: `spaces`, `audit-log`. */
  readonly name: string;
  /** Semver version of the extension. */
  readonly version: string;
  readonly description?: string;
  readonly title?: string;
  /** Events that wake the extension (e.g. `onToolset:benchmarks`); none: active at registration. */
  readonly activationEvents?: readonly string[];
  /** Events that stand it down. */
  readonly deactivationEvents?: readonly string[];
  /** Extensions that must be registered and active first. */
  readonly dependencies?: readonly string[];
  /** Semver range of `@reactor/host` it supports. */
  readonly host?: string;
  /** Tenants it serves; default: all. */
  readonly tenants?: readonly string[];
}

/** A tool's handle on one server, for `onServer` hooks: the SDK has no lookup by name. */
export interface ToolHandle {
  readonly name: string;
  /** False once disabled (a disabled tool is neither listed nor callable). */
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  /** Removes the tool from this server only. */
  remove(): void;
  /** Replaces what a client sees of the tool on this server. */
  update(changes: { title?: string; description?: string; annotations?: ToolSpec['annotations']; meta?: Record<string, unknown> }): void;
}

/** What an `onServer` hook is told about the server it acts on. */
export interface OnServerContext {
  /** The toolsets active on the server. */
  readonly toolsets: ReadonlySet<string>;
  /** The connection's own selection. */
  readonly selection: Selection;
  /** The handle of a tool registered on this server (by the host or an earlier hook). */
  tool(name: string): ToolHandle | undefined;
  /** This extension's logger. */
  readonly logger: Logger;
}

/** What `onStart` is given. */
export interface ExtensionStartContext {
  /** This extension's logger. */
  readonly logger: Logger;
  /**
   * Says this extension's contributions changed: the host reads `toolsets()`,
   * `tools()`, `toolExtensions()`, `resources()`, `prompts()` and
   * `middleware()` again, all or nothing. New connections and every 2026-07-28
   * request get the new surface, and listen streams are told the lists changed;
   * an open 2025 session keeps the surface it started on. Returns false (and
   * reports why, keeping what is served) when a re-read throws or is invalid,
   * or when the extension is not serving (stopped, stood down, failed). Keep
   * the function; it works for as long as the extension serves.
   */
  contributionsChanged(): boolean;
}

/** The plugin contract. Only `manifest` is required. */
export interface McpExtension {
  readonly manifest: PluginManifest;
  /** Default: `[{ name: manifest.name }]`, on by default. Must be cheap and side-effect free. */
  toolsets?(): Toolset[];
  tools?(): ToolSpec<never>[] | ReadonlyArray<ToolSpec<never>>;
  toolExtensions?(): Array<[toolName: string, extension: ToolExtension]>;
  resources?(): ResourceSpec[];
  prompts?(): PromptSpec[];
  /**
   * Host-wide middleware: named layers around every `tools/call` (and, when
   * they ask, `tools/list`, `resources/read`, `prompts/get`) of the servers
   * where this extension participates — audit, rate limits, redaction, policy.
   */
  middleware?(): Middleware[];
  /** The narrow escape hatch: act on each server made for a selection, before it is connected. */
  onServer?(server: McpServer, context: OnServerContext): void | Promise<void>;
  /**
   * Runs once, when the host starts (or when a held extension wakes). Its
   * context lets an extension whose surface is not fixed (a proxied server that
   * lists new tools, say) tell the host to read its contributions again.
   */
  onStart?(context: ExtensionStartContext): void | Promise<void>;
  onStop?(): void | Promise<void>;
  /**
   * Whether the awake extension can serve now (see `availability.ts`): when it
   * says no, its toolsets stay listed, and `describe()` and `/healthz` carry its
   * reason and hint. Called on every report: keep it cheap, without side effects.
   */
  availability?(): ExtensionAvailability;
}

/**
 * An extension known from its package.json but not imported yet (held until an
 * activation event, or imported by the host when it registers). Produced by
 * `loadExtensions`.
 */
export interface DeferredExtension {
  readonly kind: 'deferred';
  /** The manifest as declared in package.json (`reactorMcp`) and the package's own fields. */
  readonly manifest: PluginManifest;
  /** The toolsets declared in package.json; the imported module must match them. */
  readonly toolsets?: readonly Toolset[];
  /** `name@version` of the package that declared it. */
  readonly package: string;
  /** Imports and constructs the extension. */
  load(): Promise<McpExtension>;
  /** Set when discovery already failed: the host registers the entry as failed and reports it. */
  readonly error?: Error;
}

/** Anything `buildHost` and `host.add` accept. */
export type ExtensionInput = McpExtension | DeferredExtension;

const BRAND = Symbol.for('reactor.mcp.extension');

/** Returns the definition typed (and branded). A class implementing {@link McpExtension} works the same. */
export function defineExtension<const T extends McpExtension>(definition: T): T {
  // A frozen definition cannot carry the brand; identity is structural anyway.
  if (typeof definition === 'object' && definition !== null && Object.isExtensible(definition) && !Object.prototype.hasOwnProperty.call(definition, BRAND)) {
    Object.defineProperty(definition, BRAND, { value: true, enumerable: false });
  }
  return definition;
}

/** True for an extension object from any copy of the host (checked structurally). */
export function isExtension(value: unknown): value is McpExtension {
  if (typeof value !== 'object' || value === null) return false;
  const manifest = (value as { manifest?: unknown }).manifest;
  return typeof manifest === 'object' && manifest !== null && typeof (manifest as { name?: unknown }).name === 'string';
}

/** True for a deferred entry from `loadExtensions`. */
export function isDeferredExtension(value: unknown): value is DeferredExtension {
  return isExtension(value) && (value as { kind?: unknown }).kind === 'deferred' && typeof (value as { load?: unknown }).load === 'function';
}

/** Kebab-case: lowercase words of letters and digits joined by single hyphens. */
export const EXTENSION_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// onToolset events name a toolset (no commas or spaces, 128 characters at most); other events are free-form.
export const ACTIVATION_EVENT_PATTERN = /^(\*|onStartup|onToolset:[A-Za-z0-9._:-]{1,128}|(?!onToolset:)[A-Za-z][A-Za-z0-9]*(:[^\s]+)?)$/;

const manifestSchema = z.object({
  name: z.string().regex(EXTENSION_NAME_PATTERN, 'a kebab-case name such as "spaces" or "audit-log"'),
  version: z.string().refine((v) => semver.valid(v) !== null, 'a semver version such as "1.0.0"'),
  description: z.string().optional(),
  title: z.string().optional(),
  activationEvents: z.array(z.string().regex(ACTIVATION_EVENT_PATTERN, 'an event such as "onToolset:benchmarks"')).optional(),
  deactivationEvents: z.array(z.string().regex(ACTIVATION_EVENT_PATTERN, 'an event such as "onToolset:benchmarks"')).optional(),
  dependencies: z.array(z.string().regex(EXTENSION_NAME_PATTERN, 'an extension name')).optional(),
  host: z.string().refine((v) => semver.validRange(v) !== null, 'a semver range such as "^1.0.0"').optional(),
  tenants: z.array(z.string().min(1)).optional(),
});

/**
 * Validates a manifest, throwing `REACTOR_MANIFEST_INVALID` naming the
 * extension and the first field at fault.
 */
export function assertValidManifest(manifest: unknown, origin?: string): asserts manifest is PluginManifest {
  const name = typeof (manifest as { name?: unknown } | null)?.name === 'string' ? (manifest as { name: string }).name : undefined;
  const subject = `extension ${name === undefined ? '(unnamed)' : JSON.stringify(name)}${origin === undefined ? '' : ` (${origin})`}`;
  if (typeof manifest !== 'object' || manifest === null) {
    throw new ReactorError(ErrorCodes.MANIFEST_INVALID, {
      subject,
      problem: 'has no manifest',
      expected: 'an object { name, version }',
      received: describeValue(manifest),
      hint: 'export defineExtension({ manifest: { name: "my-extension", version: "1.0.0" }, … })',
    });
  }
  const result = manifestSchema.safeParse(manifest);
  if (result.success) return;
  const issue = result.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  const received = path === '' ? manifest : path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], manifest);
  throw new ReactorError(ErrorCodes.MANIFEST_INVALID, {
    subject,
    problem: `manifest field "manifest.${path}" is invalid`,
    expected: issue?.code === 'invalid_type' && received === undefined ? `a value (${issue.message})` : (issue?.message ?? 'a valid value'),
    received: describeValue(received),
    hint: 'see PluginManifest in the @reactor/host README',
    ...(name === undefined ? {} : { extension: name }),
  });
}

/** What `McpExtension.availability()` answers. */
export interface ExtensionAvailability {
  /** False when the extension cannot serve its tools now. */
  readonly available: boolean;
  /** Why not, in one sentence (required in practice when `available` is false). */
  readonly reason?: string;
  /** How to enable it (an environment variable to set, a package to install). */
  readonly hint?: string;
}

/** Why an extension (or a toolset it declares) is unavailable, as `report()` and `describe()` show it. */
export interface Unavailable {
  readonly reason: string;
  readonly hint?: string;
}
