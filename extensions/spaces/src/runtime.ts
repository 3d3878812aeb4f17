/**
 * The extension's state, shared by its tools, resource and prompt: the
 * options with their defaults, the roots (resolved once, on first use, so an
 * environment set before the first call counts), and the spaces they hold.
 */
import { ErrorCodes } from '@reactor/host';
import { spaceError } from './errors.js';
import { findSpace, listSpaces, resolveRoots, scanSpaces, type ResolvedRoots, type RootsOption, type Space, type SpacesScan } from './spaceRoots.js';

/** Options of `createSpacesExtension`. */
export interface SpacesOptions {
  /**
   * Where spaces live. An array of folders, each a folder *of spaces* (its
   * visible subfolders are the spaces); an entry `name=/path` is one space.
   * A record maps space names to their folders. Default: `REACTOR_SPACES_ROOT`,
   * else the sample shipped in the package.
   */
  readonly roots?: RootsOption;
  /** The most text one `read_file` or `read_notebook` page carries, in UTF-8 bytes. Default 64 KiB. */
  readonly maxReadBytes?: number;
  /** The largest file read, searched or served as a resource, in bytes. Default 16 MiB. */
  readonly maxFileBytes?: number;
  /** The most characters one notebook output's summary keeps. Default 2 000. */
  readonly maxOutputChars?: number;
  /** The largest image `read_file` returns as image content, in bytes. Default 1 MiB. */
  readonly maxImageBytes?: number;
  /** The most files and folders one listing, search or walk visits. Default 10 000. */
  readonly maxWalkEntries?: number;
  /**
   * The most characters of JSON one tool answer carries (what a model reads;
   * the structured copy is the same object). Longer answers are cut — fewer
   * entries, matches or cells, a shorter page — and say so (`truncated`, or a
   * cursor to continue). Default 100 000; else `REACTOR_SPACES_MAX_RESPONSE_CHARS`.
   */
  readonly maxResponseChars?: number;
  /** Where `REACTOR_SPACES_MAX_RESPONSE_CHARS` (and, on first use, `REACTOR_SPACES_ROOT`) are read. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** The environment variable that sets `maxResponseChars` when the option is not given. */
export const MAX_RESPONSE_CHARS_ENV = 'REACTOR_SPACES_MAX_RESPONSE_CHARS';

/** The limits in force. */
export interface SpacesLimits {
  readonly maxReadBytes: number;
  readonly maxFileBytes: number;
  readonly maxOutputChars: number;
  readonly maxImageBytes: number;
  readonly maxWalkEntries: number;
  readonly maxResponseChars: number;
}

/** Defaults of {@link SpacesLimits}. */
export const DEFAULT_LIMITS: SpacesLimits = Object.freeze({
  maxReadBytes: 64 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
  maxOutputChars: 2000,
  maxImageBytes: 1024 * 1024,
  maxWalkEntries: 10_000,
  maxResponseChars: 100_000,
});

/** The smallest `maxResponseChars` accepted: room for a page, a cell or a few entries with their fields. */
export const MIN_RESPONSE_CHARS = 2000;

/** What the tools share. */
export interface SpacesRuntime {
  readonly limits: SpacesLimits;
  /** The roots in force (resolved on first call). */
  roots(): ResolvedRoots;
  /** The spaces there are now. */
  spaces(): Promise<Space[]>;
  /** The spaces there are now, and the top-level links refused as spaces (leading outside their folder of spaces). */
  scan(): Promise<SpacesScan>;
  /** One space by name; throws naming the available spaces. */
  space(name: string): Promise<Space>;
}

/** Checks the options and makes the runtime. Invalid options throw `REACTOR_OPTION_INVALID`. */
export function createRuntime(options: SpacesOptions = {}): SpacesRuntime {
  const limits: SpacesLimits = {
    maxReadBytes: limit(options, 'maxReadBytes', 256),
    maxFileBytes: limit(options, 'maxFileBytes', 1),
    maxOutputChars: limit(options, 'maxOutputChars', 80),
    maxImageBytes: limit(options, 'maxImageBytes', 1),
    maxWalkEntries: limit(options, 'maxWalkEntries', 1),
    maxResponseChars: limit(withEnvCap(options), 'maxResponseChars', MIN_RESPONSE_CHARS),
  };
  // Invalid roots in the options fail at creation; the environment is read on first use.
  if (options.roots !== undefined) resolveRoots(options.roots, options.env ?? process.env);
  let resolved: ResolvedRoots | undefined;
  const roots = () => (resolved ??= resolveRoots(options.roots, options.env ?? process.env));
  return {
    limits,
    roots,
    spaces: () => listSpaces(roots().entries),
    scan: () => scanSpaces(roots().entries),
    space: (name) => findSpace(roots().entries, name),
  };
}

// The option wins; else the environment (a discovered extension has no options), checked like the option.
function withEnvCap(options: SpacesOptions): { maxResponseChars?: unknown; fromEnv: boolean } {
  if (options.maxResponseChars !== undefined) return { maxResponseChars: options.maxResponseChars, fromEnv: false };
  const raw = (options.env ?? process.env)[MAX_RESPONSE_CHARS_ENV];
  if (raw === undefined || raw.trim() === '') return { fromEnv: false };
  return { maxResponseChars: /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw, fromEnv: true };
}

function limit(options: Partial<Readonly<Record<keyof SpacesLimits, unknown>>> & { readonly fromEnv?: boolean }, key: keyof SpacesLimits, min: number): number {
  const value = options[key];
  if (value === undefined) return DEFAULT_LIMITS[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    const source = options.fromEnv === true ? `environment variable ${MAX_RESPONSE_CHARS_ENV}` : `option "${key}"`;
    throw spaceError(`${source} of extension "spaces"`, 'is invalid', {
      expected: `an integer of at least ${min}`,
      received: typeof value === 'number' ? String(value) : typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value,
      hint: `leave it out for the default (${DEFAULT_LIMITS[key]})`,
    }, ErrorCodes.OPTION_INVALID);
  }
  return value;
}
