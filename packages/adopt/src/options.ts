/**
 * The options every way of adopting takes, and the naming they imply: which
 * tools are kept (`include`/`exclude`), what they are called (`prefix`,
 * `rename`, repaired when invalid), and which toolset each joins (`toolset`
 * or `group`).
 */
import { EXTENSION_NAME_PATTERN, TOOL_NAME_PATTERN, type Logger, type Toolset } from '@reactor/host';
import { AdoptError, AdoptErrorCodes } from './errors.js';

/** What `group` is told of each tool. */
export interface AdoptedToolInfo {
  /** The tool's name on the adopted server. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/** A pattern of tool names: an exact name or a regular expression. */
export type NamePattern = string | RegExp;

/** Options of `adoptServer`, `adoptProcess` and `adoptRemote`. */
export interface AdoptOptions {
  /** The extension's name (kebab-case), e.g. `everything`. */
  readonly name: string;
  /** The extension's version. Default: the version in `from` when it has one, else `0.0.0`. */
  readonly version?: string;
  /** A title for the extension. */
  readonly title?: string;
  /** The toolset everything joins: a name or a declaration (`default: false` makes it opt-in). Default: `{ name }`. */
  readonly toolset?: string | Toolset;
  /** Maps each tool to a toolset name (undefined: the `toolset`). Declare those toolsets in `toolsets`. */
  readonly group?: (tool: AdoptedToolInfo) => string | undefined;
  /** Declarations of the toolsets `group` uses (a name used but not declared gets a bare declaration). */
  readonly toolsets?: readonly Toolset[];
  /** Prepended to every tool name (for collisions): `prefix: 'mem_'`. */
  readonly prefix?: string;
  /** New names by original name (wins over `prefix`). */
  readonly rename?: Readonly<Record<string, string>>;
  /** Only these tools (names or patterns, matched against the original names). */
  readonly include?: readonly NamePattern[];
  /** Not these tools (matched against the original names). */
  readonly exclude?: readonly NamePattern[];
  /** Provenance shown in descriptions and tool metadata: `package@version` or a command line. */
  readonly from?: string;
  /** Activation events (the `adopt` field sets `onToolset:<toolset>` for held servers). */
  readonly activationEvents?: readonly string[];
  /** Refuse instead of reporting when anything would be left out. Default false. */
  readonly strict?: boolean;
  /** Where the adoption report is logged (warnings for what was left out or repaired). Default: stderr at `warn`. */
  readonly logger?: Logger;
}

/** Checks the options every way of adopting shares. */
export function assertValidOptions(options: AdoptOptions, what: string): void {
  const bad = (field: string, expected: string, received: unknown): never => {
    throw new AdoptError(AdoptErrorCodes.OPTION_INVALID, {
      subject: `${what} option "${field}"${typeof options?.name === 'string' ? ` of adopted server "${options.name}"` : ''}`,
      problem: 'is invalid',
      expected,
      received: received === undefined ? 'undefined' : typeof received === 'string' ? JSON.stringify(received) : typeof received,
      hint: `see the @reactor/adopt README for ${what}'s options`,
    });
  };
  if (typeof options !== 'object' || options === null) bad('options', 'an object { name, … }', options);
  if (typeof options.name !== 'string' || !EXTENSION_NAME_PATTERN.test(options.name)) bad('name', 'a kebab-case extension name such as "everything"', options.name);
  if (options.prefix !== undefined && (typeof options.prefix !== 'string' || !/^[A-Za-z0-9._-]*$/.test(options.prefix))) bad('prefix', 'characters allowed in tool names (A-Z a-z 0-9 . _ -)', options.prefix);
  if (options.group !== undefined && typeof options.group !== 'function') bad('group', 'a function (tool) => toolset name', options.group);
  if (options.toolset !== undefined && typeof options.toolset !== 'string' && (typeof options.toolset !== 'object' || typeof options.toolset.name !== 'string')) bad('toolset', 'a toolset name or { name, description?, default? }', options.toolset);
}

/** Tests a name against patterns. */
export function matches(name: string, patterns: readonly NamePattern[]): boolean {
  return patterns.some((p) => (typeof p === 'string' ? p === name : p.test(name)));
}

/** A name made valid for SEP-986: invalid characters become `_`, at most 128 characters. */
export function repairName(name: string): string {
  const repaired = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 128);
  return repaired === '' ? '_' : repaired;
}

/** True when a tool name is valid as it is. */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/** The version in `from` (`pkg@1.2.3` → `1.2.3`), if it has one. */
export function versionOf(from: string | undefined): string | undefined {
  const match = from === undefined ? null : /@(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)$/.exec(from);
  return match?.[1];
}
