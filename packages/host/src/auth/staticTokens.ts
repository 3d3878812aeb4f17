/**
 * Static bearer tokens for small deployments: a JSON file of SHA-256 hashes
 * (the tokens themselves are never stored, read back or logged), compared in
 * constant time, and reloadable (the command reloads on SIGHUP).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';

/** One entry of the tokens file. */
export interface StaticTokenEntry {
  /** Who holds the token; becomes `AuthInfo.clientId` (and `extra.sub`, with `extra.via: "static-token"`: a principal of its own). */
  readonly name: string;
  /** Lowercase hex of the SHA-256 of the token (`reactor-mcp-server hash-token`). */
  readonly sha256: string;
  /** The scopes the token carries (toolset scopes, `--auth-required-scope`). */
  readonly scopes: readonly string[];
}

/** The hex SHA-256 of a token, as the tokens file stores it. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * How long a static token is reported valid (`AuthInfo.expiresAt`): static
 * tokens do not expire, but the SDK's bearer check needs an expiry, and an
 * hour keeps session principals stable without implying more.
 */
const NOMINAL_LIFETIME_SECONDS = 3600;

function invalidFile(file: string, problem: string, expected: string, received: string): ReactorError {
  return new ReactorError(ErrorCodes.OPTION_INVALID, {
    subject: `tokens file "${file}"`,
    problem,
    expected,
    received,
    hint: 'write a JSON array such as [{"name": "ci", "sha256": "<reactor-mcp-server hash-token < token.txt>", "scopes": ["mcp"]}]',
  });
}

/** Reads and checks a tokens file. Throws `REACTOR_OPTION_INVALID` naming the file and the entry. */
export async function readTokensFile(file: string): Promise<StaticTokenEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw invalidFile(file, `cannot be read (${errorMessage(error)})`, 'a readable file', 'an error');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalidFile(file, `is not JSON (${errorMessage(error)})`, 'a JSON array', 'other text');
  }
  if (!Array.isArray(parsed)) throw invalidFile(file, 'is not an array', 'a JSON array of entries', describeValue(parsed));
  const seen = new Set<string>();
  return parsed.map((entry: unknown, index): StaticTokenEntry => {
    const at = `entry ${index}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalidFile(file, `${at} is not an object`, 'an object with "name", "sha256" and "scopes"', describeValue(entry));
    const { name, sha256, scopes = [] } = entry as Record<string, unknown>;
    if (typeof name !== 'string' || name.trim() === '') throw invalidFile(file, `${at} has no "name"`, 'a non-empty string', describeValue(name));
    if (typeof sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256)) throw invalidFile(file, `${at} ("${name}") has an invalid "sha256"`, '64 hexadecimal digits (the token\'s hash, never the token)', typeof sha256 === 'string' ? `a string of ${sha256.length} characters (not shown: it may be a token)` : describeValue(sha256));
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) {
      throw invalidFile(file, `${at} ("${name}") has invalid "scopes"`, 'an array of scope strings (no spaces or quotes)', describeValue(scopes));
    }
    const hash = sha256.toLowerCase();
    if (seen.has(hash)) throw invalidFile(file, `${at} ("${name}") repeats the hash of an earlier entry`, 'one entry per token', 'a duplicate');
    seen.add(hash);
    return { name, sha256: hash, scopes: [...(scopes as string[])] };
  });
}

interface Loaded {
  readonly entries: readonly StaticTokenEntry[];
  readonly hashes: readonly Buffer[];
}

/** A token verifier over the entries of a tokens file. */
export class StaticTokens implements OAuthTokenVerifier {
  #loaded: Loaded;

  private constructor(
    readonly file: string,
    entries: readonly StaticTokenEntry[],
    private readonly resource: URL | undefined,
  ) {
    this.#loaded = StaticTokens.#index(entries);
  }

  /** Reads `file` (throws when it is unusable). `resource` is reported as each token's `AuthInfo.resource`. */
  static async load(file: string, resource?: URL): Promise<StaticTokens> {
    return new StaticTokens(file, await readTokensFile(file), resource);
  }

  static #index(entries: readonly StaticTokenEntry[]): Loaded {
    return { entries, hashes: entries.map((e) => Buffer.from(e.sha256, 'hex')) };
  }

  /** How many tokens are loaded. */
  get size(): number {
    return this.#loaded.entries.length;
  }

  /** The names of the loaded tokens (never the tokens). */
  get names(): readonly string[] {
    return this.#loaded.entries.map((e) => e.name);
  }

  /**
   * Reads the file again. On failure the tokens loaded before stay in force
   * (a typo in an edit must not lock every client out) and the error is thrown.
   */
  async reload(): Promise<void> {
    this.#loaded = StaticTokens.#index(await readTokensFile(this.file));
  }

  /** The token's entry, or undefined. Compares against every entry, in constant time each. */
  match(token: string): StaticTokenEntry | undefined {
    const presented = createHash('sha256').update(token, 'utf8').digest();
    const { entries, hashes } = this.#loaded;
    let found: StaticTokenEntry | undefined;
    // No early exit: the time taken does not say which entry (if any) matched.
    for (let i = 0; i < hashes.length; i++) {
      if (timingSafeEqual(hashes[i]!, presented) && found === undefined) found = entries[i];
    }
    return found;
  }

  verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.match(token);
    if (!entry) return Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token'));
    return Promise.resolve({
      token,
      clientId: entry.name,
      scopes: [...entry.scopes],
      expiresAt: Math.floor(Date.now() / 1000) + NOMINAL_LIFETIME_SECONDS,
      ...(this.resource ? { resource: this.resource } : {}),
      extra: { sub: entry.name, via: 'static-token' },
    });
  }
}
