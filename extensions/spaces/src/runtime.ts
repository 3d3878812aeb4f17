/**
 * The extension's state, shared by its tools, resource and prompt: the
 * options with their defaults, the roots (resolved once, on first use, so an
 * environment set before the first call counts), and the spaces they hold.
 */
import { answerBudget, answerTokenCounter, DEFAULT_ANSWER_TOKENS, readLimit, type AnswerBudget } from '@reactor/host';
import { EXTENSION_NAME } from './errors.js';
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
   * The most tokens (o200k_base) one tool answer carries, what a model reads:
   * its text, and separately its structured copy (the same object). Longer
   * answers are cut — fewer entries, matches or cells, a shorter page — and
   * say so (`truncated`, or a cursor to continue). Default
   * `REACTOR_SPACES_MAX_RESPONSE_TOKENS`, else 10 000; at least 500.
   */
  readonly maxResponseTokens?: number;
  /**
   * @deprecated Use `maxResponseTokens`; accepted until the next major
   * release. When given (or `REACTOR_SPACES_MAX_RESPONSE_CHARS` is set), an
   * answer also stays within this many characters of JSON; at least 2 000.
   */
  readonly maxResponseChars?: number;
  /** Where `REACTOR_SPACES_MAX_RESPONSE_TOKENS`, `REACTOR_SPACES_MAX_RESPONSE_CHARS` (and, on first use, `REACTOR_SPACES_ROOT`) are read. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** The environment variable that sets `maxResponseTokens` when the option is not given. */
export const MAX_RESPONSE_TOKENS_ENV = 'REACTOR_SPACES_MAX_RESPONSE_TOKENS';

/** @deprecated The environment variable of the deprecated `maxResponseChars`. */
export const MAX_RESPONSE_CHARS_ENV = 'REACTOR_SPACES_MAX_RESPONSE_CHARS';

/** The limits in force. */
export interface SpacesLimits {
  readonly maxReadBytes: number;
  readonly maxFileBytes: number;
  readonly maxOutputChars: number;
  readonly maxImageBytes: number;
  readonly maxWalkEntries: number;
  readonly maxResponseTokens: number;
  /** The deprecated character cap, when one is set. */
  readonly maxResponseChars: number | undefined;
}

/** Defaults of {@link SpacesLimits}. */
export const DEFAULT_LIMITS: SpacesLimits = Object.freeze({
  maxReadBytes: 64 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
  maxOutputChars: 2000,
  maxImageBytes: 1024 * 1024,
  maxWalkEntries: 10_000,
  maxResponseTokens: DEFAULT_ANSWER_TOKENS,
  maxResponseChars: undefined,
});

/** The smallest `maxResponseTokens` accepted: room for a page, a cell or a few entries with their fields. */
export const MIN_RESPONSE_TOKENS = 500;

/** The smallest (deprecated) `maxResponseChars` accepted. */
export const MIN_RESPONSE_CHARS = 2000;

/** What the tools share. */
export interface SpacesRuntime {
  readonly limits: SpacesLimits;
  /** What one answer may take (`maxResponseTokens`, and the deprecated `maxResponseChars`). */
  readonly budget: AnswerBudget;
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
  const env = options.env ?? process.env;
  const limit = (option: 'maxReadBytes' | 'maxFileBytes' | 'maxOutputChars' | 'maxImageBytes' | 'maxWalkEntries', min: number) =>
    readLimit({ extension: EXTENSION_NAME, option, value: options[option], default: DEFAULT_LIMITS[option], min });
  const chars = readLimit({ extension: EXTENSION_NAME, option: 'maxResponseChars', value: options.maxResponseChars, variable: MAX_RESPONSE_CHARS_ENV, env, default: 0, min: MIN_RESPONSE_CHARS });
  const limits: SpacesLimits = {
    maxReadBytes: limit('maxReadBytes', 256),
    maxFileBytes: limit('maxFileBytes', 1),
    maxOutputChars: limit('maxOutputChars', 80),
    maxImageBytes: limit('maxImageBytes', 1),
    maxWalkEntries: limit('maxWalkEntries', 1),
    maxResponseTokens: readLimit({ extension: EXTENSION_NAME, option: 'maxResponseTokens', value: options.maxResponseTokens, variable: MAX_RESPONSE_TOKENS_ENV, env, default: DEFAULT_ANSWER_TOKENS, min: MIN_RESPONSE_TOKENS }),
    maxResponseChars: chars === 0 ? undefined : chars,
  };
  const budget = answerBudget({ maxTokens: limits.maxResponseTokens, maxChars: limits.maxResponseChars, counter: answerTokenCounter(import.meta.url) });
  // Invalid roots in the options fail at creation; the environment is read on first use.
  if (options.roots !== undefined) resolveRoots(options.roots, options.env ?? process.env);
  let resolved: ResolvedRoots | undefined;
  const roots = () => (resolved ??= resolveRoots(options.roots, options.env ?? process.env));
  return {
    limits,
    budget,
    roots,
    spaces: () => listSpaces(roots().entries),
    scan: () => scanSpaces(roots().entries),
    space: (name) => findSpace(roots().entries, name),
  };
}

