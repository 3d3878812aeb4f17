/**
 * The extension's state, shared by its tools, resource and prompt: the
 * options with their defaults, the roots (resolved once, on first use, so an
 * environment set before the first call counts), and the spaces they hold.
 */
import { ErrorCodes } from '@reactor/host';
import { spaceError } from './errors.js';
import { findSpace, listSpaces, resolveRoots, type ResolvedRoots, type RootsOption, type Space } from './spaceRoots.js';

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
  /** The most files and folders one listing, search or walk visits. Default 10 000. */
  readonly maxWalkEntries?: number;
}

/** The limits in force. */
export interface SpacesLimits {
  readonly maxReadBytes: number;
  readonly maxFileBytes: number;
  readonly maxOutputChars: number;
  readonly maxWalkEntries: number;
}

/** Defaults of {@link SpacesLimits}. */
export const DEFAULT_LIMITS: SpacesLimits = Object.freeze({
  maxReadBytes: 64 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
  maxOutputChars: 2000,
  maxWalkEntries: 10_000,
});

/** What the tools share. */
export interface SpacesRuntime {
  readonly limits: SpacesLimits;
  /** The roots in force (resolved on first call). */
  roots(): ResolvedRoots;
  /** The spaces there are now. */
  spaces(): Promise<Space[]>;
  /** One space by name; throws naming the available spaces. */
  space(name: string): Promise<Space>;
}

/** Checks the options and makes the runtime. Invalid options throw `REACTOR_OPTION_INVALID`. */
export function createRuntime(options: SpacesOptions = {}): SpacesRuntime {
  const limits: SpacesLimits = {
    maxReadBytes: limit(options, 'maxReadBytes', 256),
    maxFileBytes: limit(options, 'maxFileBytes', 1),
    maxOutputChars: limit(options, 'maxOutputChars', 80),
    maxWalkEntries: limit(options, 'maxWalkEntries', 1),
  };
  // Invalid roots in the options fail at creation; the environment is read on first use.
  if (options.roots !== undefined) resolveRoots(options.roots);
  let resolved: ResolvedRoots | undefined;
  const roots = () => (resolved ??= resolveRoots(options.roots));
  return {
    limits,
    roots,
    spaces: () => listSpaces(roots().entries),
    space: (name) => findSpace(roots().entries, name),
  };
}

function limit(options: SpacesOptions, key: keyof SpacesLimits, min: number): number {
  const value = options[key];
  if (value === undefined) return DEFAULT_LIMITS[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw spaceError(`option "${key}" of extension "spaces"`, 'is invalid', {
      expected: `an integer of at least ${min}`,
      received: typeof value === 'number' ? String(value) : typeof value,
      hint: `leave it out for the default (${DEFAULT_LIMITS[key]})`,
    }, ErrorCodes.OPTION_INVALID);
  }
  return value;
}
