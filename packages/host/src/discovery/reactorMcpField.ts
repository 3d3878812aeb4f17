/**
 * The `reactorMcp` field of an extension package's package.json: what the host
 * reads to list an extension (and its toolsets) without importing its code.
 *
 * Each entry is validated on its own, so one bad entry costs only that
 * extension; errors give the path inside the field
 * (`reactorMcp.extensions.benchmarks.module`), what was expected and received.
 */
import path from 'node:path';
import { z } from 'zod';
import { describeValue, ErrorCodes, ReactorError } from '../kernel/errors.js';
// The manifest's own patterns, so a bad name or event is reported here with its path in package.json.
import { ACTIVATION_EVENT_PATTERN, EXTENSION_NAME_PATTERN } from '../contract/extension.js';
import { compareCodePoints } from '../selection/selection.js';
import type { Toolset } from '../contract/toolset.js';
import { TOOLSET_NAME_PATTERN } from '../contract/toolset.js';

/** One extension as declared in `reactorMcp.extensions` (the short form normalized to `{ module }`). */
export interface ReactorMcpEntry {
  /** The module to import, relative to the package root: `./dist/benchmarks.js`. */
  readonly module: string;
  /** The export to take from it. Default `"default"`. */
  readonly export?: string;
  readonly title?: string;
  readonly description?: string;
  /** Declared here so a held extension is listed without importing it; the module must agree. */
  readonly activationEvents?: readonly string[];
  readonly deactivationEvents?: readonly string[];
  /** Declared here so the toolsets are listed without importing; the module must agree. */
  readonly toolsets?: readonly Toolset[];
  readonly dependencies?: readonly string[];
  readonly tenants?: readonly string[];
}

/** One entry of the field: its extension name and either the entry or why it is invalid. */
export type ReactorMcpFieldEntry =
  | { readonly name: string; readonly entry: ReactorMcpEntry; readonly error?: undefined }
  | { readonly name: string; readonly entry?: undefined; readonly error: ReactorError };


const modulePath = z
  .string({ error: 'a path relative to the package root, such as "./dist/extension.js"' })
  .refine(isInsidePackage, 'a path relative to the package root that stays inside it, such as "./dist/extension.js"');

const stringList = (what: string, pattern?: RegExp) =>
  z.array(pattern ? z.string({ error: what }).regex(pattern, what) : z.string({ error: what }).min(1, what), { error: `an array of ${what}s` });

const toolsetSchema = z.strictObject(
  {
    name: z.string({ error: 'a toolset name' }).regex(TOOLSET_NAME_PATTERN, 'a toolset name of letters, digits, ".", "_", ":" or "-"'),
    title: z.string({ error: 'a string' }).optional(),
    description: z.string({ error: 'a string' }).optional(),
    default: z.boolean({ error: 'a boolean' }).optional(),
    always: z.boolean({ error: 'a boolean' }).optional(),
    instructions: z.string({ error: 'a string' }).optional(),
    scopes: z.array(z.string({ error: 'a scope string' }), { error: 'an array of scope strings' }).optional(),
  },
  { error: 'a toolset object { name, description?, default? }' },
);

/** The full form of one entry. Unknown keys are refused: a typo such as `activationEvent` would otherwise import a held extension at start-up. */
export const reactorMcpEntrySchema = z.strictObject(
  {
    module: modulePath,
    export: z.string({ error: 'an export name such as "default"' }).min(1, 'an export name such as "default"').optional(),
    title: z.string({ error: 'a string' }).optional(),
    description: z.string({ error: 'a string' }).optional(),
    activationEvents: stringList('an event such as "onToolset:benchmarks"', ACTIVATION_EVENT_PATTERN).optional(),
    deactivationEvents: stringList('an event such as "onToolset:benchmarks"', ACTIVATION_EVENT_PATTERN).optional(),
    toolsets: z.array(toolsetSchema, { error: 'an array of toolsets' }).optional(),
    dependencies: stringList('an extension name', EXTENSION_NAME_PATTERN).optional(),
    tenants: stringList('a tenant name').optional(),
  },
  { error: 'an object { module, export?, activationEvents?, toolsets?, … } or a module path string' },
);

const fieldSchema = z.strictObject(
  { extensions: z.record(z.string(), z.unknown(), { error: 'an object mapping extension names to entries' }) },
  { error: 'an object { extensions: { <name>: { module, … } | "./module.js" } }' },
);

const ENTRY_KEYS = Object.keys(reactorMcpEntrySchema.shape).join(', ');
const FIELD_HINT = 'see "Discovery" in the @reactor/host README: "reactorMcp": { "extensions": { "my-ext": { "module": "./dist/index.js" } } }';

/**
 * Validates a package's `reactorMcp` field. Throws `REACTOR_PACKAGE_INVALID`
 * when the field as a whole is malformed; otherwise returns one result per
 * extension (sorted by name), each valid or carrying its own error.
 */
export function parseReactorMcpField(value: unknown, pkg: string): ReactorMcpFieldEntry[] {
  const field = fieldSchema.safeParse(value);
  if (!field.success) throw fieldError(field.error.issues[0], value, ['reactorMcp'], pkg, undefined);
  const names = Object.keys(field.data.extensions).sort(compareCodePoints);
  if (names.length === 0) {
    throw new ReactorError(ErrorCodes.PACKAGE_INVALID, {
      subject: `package ${pkg}`,
      problem: 'its package.json field "reactorMcp.extensions" declares no extension',
      expected: 'at least one entry',
      received: 'an empty object',
      hint: FIELD_HINT,
    });
  }
  return names.map((name): ReactorMcpFieldEntry => {
    const raw = field.data.extensions[name];
    const at = ['reactorMcp', 'extensions', name];
    if (!EXTENSION_NAME_PATTERN.test(name)) {
      return {
        name,
        error: new ReactorError(ErrorCodes.PACKAGE_INVALID, {
          subject: `extension ${JSON.stringify(name)} (${pkg})`,
          problem: `its key in package.json "${formatPath(at.slice(0, 2))}" is not a valid extension name`,
          expected: 'a kebab-case name such as "spaces" or "audit-log"',
          received: describeValue(name),
          hint: FIELD_HINT,
          extension: name,
        }),
      };
    }
    if (typeof raw === 'string') {
      const short = modulePath.safeParse(raw);
      return short.success ? { name, entry: { module: raw } } : { name, error: fieldError(short.error.issues[0], raw, at, pkg, name) };
    }
    const full = reactorMcpEntrySchema.safeParse(raw);
    return full.success ? { name, entry: full.data } : { name, error: fieldError(full.error.issues[0], raw, at, pkg, name) };
  });
}

function fieldError(issue: z.core.$ZodIssue | undefined, root: unknown, prefix: string[], pkg: string, extension: string | undefined): ReactorError {
  let at: PropertyKey[] = issue?.path ?? [];
  let expected = issue?.message ?? 'a valid value';
  if (issue?.code === 'unrecognized_keys') {
    at = [...at, issue.keys[0] ?? ''];
    expected = prefix.length > 1 && at.length === 1 ? `one of the keys ${ENTRY_KEYS}` : 'no such key';
  }
  const received = at.reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined), root);
  const where = formatPath([...prefix, ...at.map(String)]);
  return new ReactorError(ErrorCodes.PACKAGE_INVALID, {
    subject: extension === undefined ? `package ${pkg}` : `extension "${extension}" (${pkg})`,
    problem: issue?.code === 'unrecognized_keys' ? `its package.json has an unknown key "${where}"` : `its package.json field "${where}" is invalid`,
    expected,
    received: describeValue(received),
    hint: FIELD_HINT,
    ...(extension === undefined ? {} : { extension }),
  });
}

/** `reactorMcp.extensions.benchmarks.toolsets.0.name`; keys that are not plain words are quoted. */
export function formatPath(parts: readonly string[]): string {
  return parts.map((p, i) => (/^[A-Za-z0-9_$-]+$/.test(p) ? `${i === 0 ? '' : '.'}${p}` : `[${JSON.stringify(p)}]`)).join('');
}

function isInsidePackage(p: string): boolean {
  if (p === '' || path.posix.isAbsolute(p) || path.win32.isAbsolute(p) || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(p)) return false;
  const normalized = path.posix.normalize(p.replaceAll('\\', '/'));
  return normalized !== '..' && !normalized.startsWith('../') && normalized !== '.';
}
