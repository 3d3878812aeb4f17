/**
 * The command's authentication flags and environment variables, parsed into
 * {@link CommandAuthOptions}. Pure (reads argv and the environment only) and
 * free of `jose`: library users who import `@reactor/host` load this file, not
 * the verifiers, which the command imports only when auth is configured.
 */
import { isIP } from 'node:net';
import { describeValue, ErrorCodes, ReactorError } from '../../kernel/errors.js';

/** What the command was asked to do about authentication. */
export interface CommandAuthOptions {
  /** OAuth/OIDC issuers whose JWT access tokens are accepted (`--auth-issuer`). */
  readonly issuers: readonly string[];
  /** Accepted `aud` values; the public URL when none is given (RFC 8707). */
  readonly audiences: readonly string[];
  /** The endpoint's public URL (`--public-url`): the resource named in challenges and the metadata document. */
  readonly publicUrl: string | undefined;
  /** An RFC 7662 introspection endpoint for opaque tokens. */
  readonly introspectionUrl: string | undefined;
  /** The client the command authenticates as at the introspection endpoint (from the environment only; never logged). */
  readonly introspectionClient: { readonly id: string; readonly secret: string } | undefined;
  /** A JSON file of static token hashes (`--auth-tokens-file`), reloaded on SIGHUP. */
  readonly tokensFile: string | undefined;
  /** Scopes every request needs. */
  readonly requiredScopes: readonly string[];
  /** Whether `GET /toolsets` needs a token (default true). */
  readonly protectToolsets: boolean;
  /** Whether `GET /healthz` needs a token (default false: load balancers carry none). */
  readonly protectHealthz: boolean;
  /** Leeway for `exp`/`nbf`, seconds (default 30). */
  readonly clockSkewSeconds: number;
  /** The least time between two key-set refetches caused by an unknown `kid`, seconds (default 30). */
  readonly jwksCooldownSeconds: number;
  /** `--no-auth`: serve without authentication even on a public address. */
  readonly disabled: boolean;
}

/** The flags this module reads, in `node:util` `parseArgs` form. */
export const AUTH_FLAGS = {
  'auth-issuer': { type: 'string', multiple: true },
  'auth-audience': { type: 'string', multiple: true },
  'public-url': { type: 'string' },
  'auth-introspection-url': { type: 'string' },
  'auth-tokens-file': { type: 'string' },
  'auth-required-scope': { type: 'string', multiple: true },
  'auth-protect-toolsets': { type: 'boolean' },
  'no-auth-protect-toolsets': { type: 'boolean' },
  'auth-protect-healthz': { type: 'boolean' },
  'no-auth-protect-healthz': { type: 'boolean' },
  'auth-clock-skew': { type: 'string' },
  'auth-jwks-cooldown': { type: 'string' },
  'no-auth': { type: 'boolean' },
} as const;
/** The name of one of {@link AUTH_FLAGS}. */
export type AuthFlagName = keyof typeof AUTH_FLAGS;

/** The usage lines of the auth flags, for `--help`. */
export const AUTH_HELP = `
Authentication (http: an OAuth 2.1 resource server; environment variable in brackets):
  --auth-issuer URL              accept JWT access tokens from this issuer (metadata discovered,
                                 keys from its JWKS); repeatable [REACTOR_MCP_AUTH_ISSUERS, comma list]
  --auth-audience AUD            the "aud" a token must carry; default: the --public-url; repeatable
                                 [REACTOR_MCP_AUTH_AUDIENCE, comma list]
  --public-url URL               the endpoint as clients see it, e.g. https://mcp.example.com/mcp
                                 [REACTOR_MCP_PUBLIC_URL]
  --auth-introspection-url URL   RFC 7662 introspection for opaque tokens; the client from
                                 REACTOR_MCP_AUTH_CLIENT_ID and REACTOR_MCP_AUTH_CLIENT_SECRET
                                 [REACTOR_MCP_AUTH_INTROSPECTION_URL]
  --auth-tokens-file PATH        static tokens, [{"name", "sha256", "scopes"}], reloaded on SIGHUP
                                 [REACTOR_MCP_AUTH_TOKENS_FILE]
  --auth-required-scope SCOPE    a scope every request needs; repeatable
                                 [REACTOR_MCP_AUTH_REQUIRED_SCOPES, comma list]
  --[no-]auth-protect-toolsets   default on: GET /toolsets needs a token [REACTOR_MCP_AUTH_PROTECT_TOOLSETS]
  --[no-]auth-protect-healthz    default off: GET /healthz stays open to probes [REACTOR_MCP_AUTH_PROTECT_HEALTHZ]
  --auth-clock-skew SECONDS      default 30: leeway for exp and nbf [REACTOR_MCP_AUTH_CLOCK_SKEW]
  --auth-jwks-cooldown SECONDS   default 30: least time between key-set refetches on an unknown kid
                                 [REACTOR_MCP_AUTH_JWKS_COOLDOWN]
  --no-auth                      serve a non-loopback --host without authentication, on purpose
                                 [REACTOR_MCP_NO_AUTH]

Usage: reactor-mcp-server hash-token [--generate] < token.txt
  prints the SHA-256 of the token on stdin, for the tokens file (--generate: a new token)
`;

/** How the command's option parser exposes what argv said. */
export interface AuthFlagReader {
  /** Every value given to a string flag, in order; undefined when the flag was not given. */
  strings(flag: AuthFlagName): readonly string[] | undefined;
  /** The argv position of a boolean flag's last occurrence; -1 when absent. */
  position(flag: AuthFlagName): number;
}

const HINT = 'run reactor-mcp-server --help for the options';
const DEFAULT_SECONDS = 30;

function invalid(subject: string, problem: string, expected?: string, received?: string, hint = HINT): ReactorError {
  return new ReactorError(ErrorCodes.OPTION_INVALID, {
    subject,
    problem,
    ...(expected === undefined ? {} : { expected }),
    ...(received === undefined ? {} : { received }),
    hint,
  });
}

/** Whether `host` (a listen address or a URL's host name) is loopback: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

const splitList = (value: string | undefined, separator: RegExp = /,/): string[] =>
  (value ?? '').split(separator).map((s) => s.trim()).filter((s) => s !== '');

/**
 * Parses the auth flags and variables, and refuses an unsafe combination:
 * an HTTP listener on a non-loopback `host` with no authentication, unless
 * `--no-auth` says so explicitly. Throws `REACTOR_OPTION_INVALID`.
 */
export function parseAuthOptions(flags: AuthFlagReader, env: NodeJS.ProcessEnv, listen: { readonly transport: 'http' | 'stdio'; readonly host: string }): CommandAuthOptions {
  const list = (flag: AuthFlagName, variable: string, separator?: RegExp): { values: string[]; from: string } => {
    const given = flags.strings(flag);
    if (given !== undefined) return { values: given.flatMap((v) => splitList(v, separator)), from: `flag "--${flag}"` };
    return { values: splitList(env[variable], separator), from: `environment variable ${variable}` };
  };
  const one = (flag: AuthFlagName, variable: string): { value: string; from: string } | undefined => {
    const given = flags.strings(flag);
    if (given !== undefined) return { value: given[given.length - 1]!.trim(), from: `flag "--${flag}"` };
    const raw = env[variable]?.trim();
    return raw ? { value: raw, from: `environment variable ${variable}` } : undefined;
  };
  const toggle = (on: AuthFlagName, off: AuthFlagName | undefined, variable: string, fallback: boolean): boolean => {
    const onAt = flags.position(on);
    const offAt = off === undefined ? -1 : flags.position(off);
    if (onAt >= 0 || offAt >= 0) return onAt > offAt;
    const raw = env[variable]?.trim().toLowerCase();
    if (!raw) return fallback;
    if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
    if (['0', 'false', 'off', 'no'].includes(raw)) return false;
    throw invalid(`environment variable ${variable}`, 'is not a boolean', 'one of 1, true, on, yes, 0, false, off, no', describeValue(env[variable]));
  };
  const seconds = (flag: AuthFlagName, variable: string): number => {
    const got = one(flag, variable);
    if (got === undefined) return DEFAULT_SECONDS;
    if (!/^\d{1,5}$/.test(got.value)) throw invalid(got.from, 'is not a number of seconds', 'a whole number from 0 to 99999', describeValue(got.value));
    return Number(got.value);
  };

  const issuers = list('auth-issuer', 'REACTOR_MCP_AUTH_ISSUERS');
  for (const issuer of issuers.values) checkUrl(issuer, issuers.from, 'an https URL such as https://idp.example.com/realms/mcp (http only on loopback)', true);
  const publicUrl = one('public-url', 'REACTOR_MCP_PUBLIC_URL');
  if (publicUrl) checkUrl(publicUrl.value, publicUrl.from, 'an absolute http(s) URL of the endpoint, such as https://mcp.example.com/mcp', false);
  const audiences = list('auth-audience', 'REACTOR_MCP_AUTH_AUDIENCE');
  const introspection = one('auth-introspection-url', 'REACTOR_MCP_AUTH_INTROSPECTION_URL');
  if (introspection) checkUrl(introspection.value, introspection.from, 'an https URL of the authorization server\'s introspection endpoint (http only on loopback)', true);
  const clientId = env.REACTOR_MCP_AUTH_CLIENT_ID?.trim();
  const clientSecret = env.REACTOR_MCP_AUTH_CLIENT_SECRET;
  if (introspection && (!clientId || !clientSecret)) {
    throw invalid(introspection.from, 'needs the client the server authenticates as', 'REACTOR_MCP_AUTH_CLIENT_ID and REACTOR_MCP_AUTH_CLIENT_SECRET in the environment', `${clientId ? 'a client id' : 'no client id'} and ${clientSecret ? 'a secret' : 'no secret'}`, 'register the MCP server as a confidential client of the authorization server and set both variables (never on the command line)');
  }
  const tokensFile = one('auth-tokens-file', 'REACTOR_MCP_AUTH_TOKENS_FILE');
  const disabled = toggle('no-auth', undefined, 'REACTOR_MCP_NO_AUTH', false);

  const configured = issuers.values.length > 0 || introspection !== undefined || tokensFile !== undefined;
  if (disabled && configured) {
    throw invalid('flag "--no-auth"', 'contradicts the authentication configured', 'either --no-auth or --auth-issuer/--auth-introspection-url/--auth-tokens-file', 'both', 'drop --no-auth (or REACTOR_MCP_NO_AUTH) to serve with authentication');
  }
  if ((issuers.values.length > 0 || introspection) && audiences.values.length === 0 && !publicUrl) {
    throw invalid(issuers.values.length > 0 ? issuers.from : introspection!.from, 'has no audience to check tokens against', '--public-url (the audience by default, RFC 8707) or --auth-audience', 'neither', 'without an audience, a token the authorization server issued for any other service would be accepted');
  }
  if (listen.transport === 'http' && !configured && !disabled && !isLoopbackHost(listen.host)) {
    throw invalid(
      'flag "--host"',
      `"${listen.host}" is not a loopback address and no authentication is configured, so anyone who can reach the port would get every toolset`,
      '--auth-issuer, --auth-introspection-url or --auth-tokens-file',
      'none',
      'configure one of them, or pass --no-auth to serve without authentication on purpose (a reverse proxy that authenticates, a private network)',
    );
  }
  return {
    issuers: [...new Set(issuers.values)],
    audiences: [...new Set(audiences.values)],
    publicUrl: publicUrl?.value,
    introspectionUrl: introspection?.value,
    introspectionClient: introspection && clientId && clientSecret ? { id: clientId, secret: clientSecret } : undefined,
    tokensFile: tokensFile?.value,
    requiredScopes: [...new Set(list('auth-required-scope', 'REACTOR_MCP_AUTH_REQUIRED_SCOPES', /[,\s]+/).values)],
    protectToolsets: toggle('auth-protect-toolsets', 'no-auth-protect-toolsets', 'REACTOR_MCP_AUTH_PROTECT_TOOLSETS', true),
    protectHealthz: toggle('auth-protect-healthz', 'no-auth-protect-healthz', 'REACTOR_MCP_AUTH_PROTECT_HEALTHZ', false),
    clockSkewSeconds: seconds('auth-clock-skew', 'REACTOR_MCP_AUTH_CLOCK_SKEW'),
    jwksCooldownSeconds: seconds('auth-jwks-cooldown', 'REACTOR_MCP_AUTH_JWKS_COOLDOWN'),
    disabled,
  };
}

/** Whether any authentication is configured. */
export function authConfigured(auth: CommandAuthOptions): boolean {
  return auth.issuers.length > 0 || auth.introspectionUrl !== undefined || auth.tokensFile !== undefined;
}

function checkUrl(value: string, from: string, expected: string, httpsUnlessLoopback: boolean): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(from, 'is not an absolute URL', expected, describeValue(value));
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && (!httpsUnlessLoopback || isLoopbackHost(url.hostname)));
  if (!secure || url.username || url.password || url.hash) throw invalid(from, `is not a usable URL (${url.protocol === 'http:' ? 'plain http off loopback' : url.username || url.password ? 'credentials in the URL' : url.hash ? 'a fragment' : `scheme ${url.protocol}`})`, expected, describeValue(value));
}
