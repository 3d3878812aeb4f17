/**
 * Turns the command's auth options into the app's `auth` option: one token
 * verifier chaining static tokens, JWT access tokens and introspection, the
 * protected-resource metadata naming the issuers, the SIGHUP reload of the
 * tokens file, and what the start-up summary says about it.
 *
 * The command imports this module only when auth is configured; it imports the
 * JWT verifier (and with it `jose`) only when `--auth-issuer` is given.
 */
import { OAuthError, OAuthErrorCode, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { errorMessage } from '../../kernel/errors.js';
import type { McpAppAuthOptions } from '../../serve/http/auth.js';
import type { Logger } from '../../kernel/logger.js';
import type { Toolset } from '../../contract/toolset.js';
import { createIntrospectionVerifier } from '../../auth/introspection.js';
import { sameIssuer } from '../../auth/issuerMetadata.js';
import { authConfigured, isLoopbackHost, type CommandAuthOptions } from './options.js';
import { StaticTokens } from '../../auth/staticTokens.js';
import type { AuthSummary } from './summary.js';

export type { AuthSummary } from './summary.js';

/** The command's authentication, set up. */
export interface CommandAuth {
  /** The `auth` option for `createMcpApp`; undefined when none is configured. */
  readonly app: McpAppAuthOptions | undefined;
  readonly summary: AuthSummary;
  /** Stops listening for SIGHUP. */
  close(): void;
}

/** What {@link setUpCommandAuth} needs from the command. */
export interface CommandAuthContext {
  readonly logger: Logger;
  /** The address the server listens on (`--host`): serving a public one with `--no-auth` is warned about. */
  readonly listenHost: string;
  /** The server's name: the metadata document's `resource_name`. */
  readonly name: string;
  /** The declared toolsets, whose `scopes` go in `scopes_supported`. */
  readonly toolsets: readonly Toolset[];
  /** Where SIGHUP is listened for (reloads the tokens file). */
  readonly signals: Pick<NodeJS.Process, 'once' | 'removeListener'>;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Builds the verifiers and the app's `auth` option. Throws `REACTOR_OPTION_INVALID` for an unusable tokens file. */
export async function setUpCommandAuth(options: CommandAuthOptions, context: CommandAuthContext): Promise<CommandAuth> {
  const { logger } = context;
  if (!authConfigured(options)) {
    if (options.disabled && !isLoopbackHost(context.listenHost)) {
      logger.warn({ host: context.listenHost }, `serving ${context.listenHost} WITHOUT authentication (--no-auth): anyone who can reach the port gets every toolset`);
    }
    return { app: undefined, summary: { mode: options.disabled ? 'disabled' : 'none' }, close: () => {} };
  }
  const audiences = options.audiences.length > 0 ? options.audiences : options.publicUrl ? [options.publicUrl] : [];
  const resource = audiences[0] !== undefined && URL.canParse(audiences[0]) ? new URL(audiences[0]) : undefined;

  const statics = options.tokensFile === undefined ? undefined : await StaticTokens.load(options.tokensFile, resource);
  const jwt = options.issuers.length === 0 ? undefined : (await import('../../auth/jwt.js')).createJwtVerifier({ issuers: options.issuers, audiences, clockSkewSeconds: options.clockSkewSeconds, jwksCooldownSeconds: options.jwksCooldownSeconds, logger });
  const introspection =
    options.introspectionUrl === undefined || options.introspectionClient === undefined
      ? undefined
      : createIntrospectionVerifier({ url: options.introspectionUrl, client: options.introspectionClient, audiences, issuers: options.issuers, clockSkewSeconds: options.clockSkewSeconds, logger });

  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(token) {
      if (statics?.match(token)) return await statics.verifyAccessToken(token);
      // A JWT goes to the key-set check when its (unverified) issuer is trusted, or when nothing else could take it.
      if (jwt && JWT_SHAPE.test(token) && (!introspection || claimsTrustedIssuer(token, options.issuers))) return await jwt.verifyAccessToken(token);
      if (introspection) return await introspection.verifyAccessToken(token);
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token');
    },
  };

  let stopHangups = (): void => {};
  if (statics) {
    // `once`, re-armed at each signal: the command's signal source only offers `once` (as for SIGINT/SIGTERM).
    const onHangup = (): void => {
      context.signals.once('SIGHUP', onHangup);
      statics.reload().then(
        () => logger.info({ tokensFile: statics.file, tokens: statics.names }, `reloaded the tokens file ${statics.file}: ${statics.size} token(s)`),
        (error: unknown) => logger.error({ tokensFile: statics.file }, `could not reload the tokens file (the ${statics.size} token(s) loaded before stay in force): ${errorMessage(error)}`),
      );
    };
    context.signals.once('SIGHUP', onHangup);
    stopHangups = () => context.signals.removeListener('SIGHUP', onHangup);
  }
  if (jwt) {
    for (const found of await jwt.discover()) {
      if (found.metadata) logger.info({ issuer: found.issuer, metadata: found.metadata.discoveredAt, jwks: found.metadata.jwks_uri }, `issuer ${found.issuer}: keys at ${found.metadata.jwks_uri}`);
      else logger.warn({ issuer: found.issuer }, `issuer ${found.issuer} is not reachable yet; its tokens are refused until it is (${found.error ?? 'unknown error'})`);
    }
  }

  const toolsetScopes = context.toolsets.flatMap((t) => t.scopes ?? []);
  const scopesSupported = [...new Set([...options.requiredScopes, ...toolsetScopes])];
  const advertise = options.publicUrl !== undefined && options.issuers.length > 0;
  const app: McpAppAuthOptions = {
    verifier,
    requiredScopes: options.requiredScopes,
    protectToolsets: options.protectToolsets,
    protectHealthz: options.protectHealthz,
    // The metadata document names where tokens come from: only issuers can be named.
    ...(advertise ? { resourceServerUrl: options.publicUrl, authorizationServers: options.issuers, resourceName: context.name, ...(scopesSupported.length > 0 ? { scopesSupported } : {}) } : {}),
  };
  const mode = [...(jwt ? (['jwt'] as const) : []), ...(introspection ? (['introspection'] as const) : []), ...(statics ? (['static-tokens'] as const) : [])];
  const summary: AuthSummary = {
    mode,
    ...(options.issuers.length > 0 ? { issuers: options.issuers } : {}),
    ...(audiences.length > 0 ? { audiences } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.introspectionUrl ? { introspection: options.introspectionUrl } : {}),
    ...(statics ? { staticTokens: { file: statics.file, names: statics.names } } : {}),
    requiredScopes: options.requiredScopes,
    protectToolsets: options.protectToolsets,
    protectHealthz: options.protectHealthz,
  };
  return {
    app,
    summary,
    close: () => stopHangups(),
  };
}

/** Whether the token's unverified `iss` is a trusted issuer (only routes the token; jose verifies it). */
function claimsTrustedIssuer(token: string, issuers: readonly string[]): boolean {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const iss = (payload as { iss?: unknown } | null)?.iss;
    return typeof iss === 'string' && issuers.some((i) => sameIssuer(i, iss));
  } catch {
    return false;
  }
}
