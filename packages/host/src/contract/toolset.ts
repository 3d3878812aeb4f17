/**
 * Toolsets: named groups of tools, the thing a URL switches on. A name is a
 * subject, not a package: several extensions may declare one, and the first
 * declaration (in registration order) is the one described.
 */
import { describeValue, ErrorCodes, ReactorError } from '../kernel/errors.js';

/** What `mcp.toolsets` holds. */
export interface Toolset {
  /** The name a URL uses: `?name`, `?only=name`, `?without=name`. */
  readonly name: string;
  /** Display title (falls back to the name). */
  readonly title?: string;
  /** What the toolset is for. */
  readonly description?: string;
  /** On when the URL names nothing. Default `true`. */
  readonly default?: boolean;
  /** On whatever the URL says; `without=` cannot remove it. Default `false`. */
  readonly always?: boolean;
  /** Added to the server's instructions, under a heading, when active. */
  readonly instructions?: string;
  /** With `auth` on, a token must carry all of these to get the toolset. */
  readonly scopes?: readonly string[];
}

/** A toolset as the host describes it (defaults filled in). */
export interface DescribedToolset {
  name: string;
  title: string;
  description: string;
  default: boolean;
  always: boolean;
  active: boolean;
  /** Present when the extension declaring it is awake but cannot serve (nothing configured or installed): why, and how to enable it. */
  unavailable?: { extension: string; reason: string; hint?: string };
}

/** Toolset names: what a URL can carry without escaping (no comma, space, `&`, `=`, `/`). */
export const TOOLSET_NAME_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Checks one declaration, naming the extension that made it. */
export function assertValidToolset(toolset: Toolset, extension: string): void {
  const fail = (problem: string, expected: string, received: string): never => {
    throw new ReactorError(ErrorCodes.TOOLSET_INVALID, {
      subject: `toolset ${typeof toolset?.name === 'string' ? JSON.stringify(toolset.name) : '(unnamed)'} of extension "${extension}"`,
      problem,
      expected,
      received,
      hint: 'declare toolsets as { name: "kebab-or-snake", description, default?: boolean }',
      extension,
    });
  };
  if (typeof toolset !== 'object' || toolset === null) fail('is not a toolset', 'an object', describeValue(toolset));
  if (typeof toolset.name !== 'string' || !TOOLSET_NAME_PATTERN.test(toolset.name)) {
    fail('has an invalid name', 'letters, digits, ".", "_", ":" or "-" (no commas or spaces, which a URL splits on)', describeValue(toolset.name));
  }
  for (const key of ['default', 'always'] as const) {
    if (toolset[key] !== undefined && typeof toolset[key] !== 'boolean') fail(`has an invalid "${key}"`, 'a boolean', describeValue(toolset[key]));
  }
  for (const key of ['title', 'description', 'instructions'] as const) {
    if (toolset[key] !== undefined && typeof toolset[key] !== 'string') fail(`has an invalid "${key}"`, 'a string', describeValue(toolset[key]));
  }
  if (toolset.scopes !== undefined && !(Array.isArray(toolset.scopes) && toolset.scopes.every((s) => typeof s === 'string'))) {
    fail('has invalid "scopes"', 'an array of strings', describeValue(toolset.scopes));
  }
}

/**
 * The declared toolsets a caller may not have, with the scopes it lacks: a
 * toolset with `scopes` needs every one of them. `granted` undefined (no auth)
 * denies nothing.
 */
export function deniedToolsets(declared: Iterable<Toolset>, granted: readonly string[] | undefined): Map<string, string[]> {
  const denied = new Map<string, string[]>();
  if (granted === undefined) return denied;
  const has = new Set(granted);
  for (const toolset of declared) {
    if (!toolset.scopes || denied.has(toolset.name)) continue;
    const missing = toolset.scopes.filter((s) => !has.has(s));
    if (missing.length > 0) denied.set(toolset.name, missing);
  }
  return denied;
}

/** Fills a declaration's defaults for `describe()`. */
export function describeToolset(toolset: Toolset, active: boolean): DescribedToolset {
  return {
    name: toolset.name,
    title: toolset.title ?? toolset.name,
    description: toolset.description ?? '',
    default: toolset.default ?? true,
    always: toolset.always ?? false,
    active,
  };
}

/**
 * The server instructions for a set of active toolsets: the host's own text,
 * then each active toolset that has instructions, sorted by name, under a
 * `## title` heading; blank lines between.
 */
export function composeInstructions(hostText: string | undefined, declared: Iterable<Toolset>, active: ReadonlySet<string>): string {
  const sections: string[] = [];
  if (hostText !== undefined && hostText.trim() !== '') sections.push(hostText.trim());
  const withText = [...declared]
    .filter((t) => active.has(t.name) && typeof t.instructions === 'string' && t.instructions.trim() !== '')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const toolset of withText) sections.push(`## ${toolset.title ?? toolset.name}\n\n${(toolset.instructions ?? '').trim()}`);
  return sections.join('\n\n');
}
