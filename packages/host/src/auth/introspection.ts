/**
 * Opaque access tokens checked by RFC 7662 token introspection: the server
 * authenticates to the authorization server as a confidential client (HTTP
 * Basic, RFC 6749 §2.3.1) and asks whether the token is active. Dependency-free
 * (`fetch`); no caching, so a revoked token stops working at once.
 */
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { errorMessage } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import { audiencesOfClaims, clientOfClaims, scopesOfClaims } from './claims.js';
import { sameIssuer } from './issuerMetadata.js';

/** Options of {@link createIntrospectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The introspection endpoint. */
  readonly url: string;
  /** The client the server authenticates as (never logged). */
  readonly client: { readonly id: string; readonly secret: string };
  /** Accepted `aud` values: the response must name one. */
  readonly audiences: readonly string[];
  /** Trusted issuers: when given and the response names an `iss`, it must be one of them. */
  readonly issuers: readonly string[];
  /** Leeway for `exp`/`nbf`, seconds. */
  readonly clockSkewSeconds: number;
  /** Bound on each introspection request, ms. Default 5000. */
  readonly timeoutMs?: number;
  readonly logger: Logger;
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
}

const invalid = (description: string) => new OAuthError(OAuthErrorCode.InvalidToken, description);
// RFC 6749 §2.3.1: the client id and secret are form-urlencoded before Basic encoding.
const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

/** A verifier that introspects every token it is given. */
export function createIntrospectionVerifier(options: IntrospectionVerifierOptions): OAuthTokenVerifier {
  const doFetch = options.fetch ?? fetch;
  const authorization = `Basic ${Buffer.from(`${formEncode(options.client.id)}:${formEncode(options.client.secret)}`).toString('base64')}`;
  const unavailable = (why: string) => {
    options.logger.error({ url: options.url }, `token introspection at ${options.url} failed: ${why}`);
    return invalid('The token cannot be verified now: the introspection endpoint is unavailable');
  };

  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      let response: Response;
      try {
        response = await doFetch(options.url, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
          redirect: 'error',
          signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
        });
      } catch (error) {
        throw unavailable(errorMessage(error));
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw unavailable(`HTTP ${response.status}${response.status === 401 ? ' (check REACTOR_MCP_AUTH_CLIENT_ID / REACTOR_MCP_AUTH_CLIENT_SECRET)' : ''}`);
      }
      let claims: Record<string, unknown>;
      try {
        const body: unknown = await response.json();
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not a JSON object');
        claims = body as Record<string, unknown>;
      } catch (error) {
        throw unavailable(`the answer is not a JSON object (${errorMessage(error)})`);
      }
      if (claims['active'] !== true) throw invalid('The token is not active');
      const now = Date.now() / 1000;
      const exp = claims['exp'];
      if (typeof exp !== 'number' || !Number.isFinite(exp)) throw invalid('The token has no "exp" claim');
      if (exp + options.clockSkewSeconds <= now) throw invalid('The token has expired');
      const nbf = claims['nbf'];
      if (typeof nbf === 'number' && nbf - options.clockSkewSeconds > now) throw invalid('The token is not yet valid');
      const iss = claims['iss'];
      if (options.issuers.length > 0 && iss !== undefined && !(typeof iss === 'string' && options.issuers.some((i) => sameIssuer(i, iss)))) {
        throw invalid("The token's issuer is not trusted here");
      }
      const aud = audiencesOfClaims(claims);
      const resource = options.audiences.find((a) => aud.includes(a));
      if (resource === undefined) throw invalid('The token was not issued for this resource');
      return {
        token,
        clientId: clientOfClaims(claims),
        scopes: scopesOfClaims(claims),
        // The skew applies to the server's own check above; the SDK's stricter one must agree.
        expiresAt: Math.max(exp, Math.ceil(now) + 1),
        ...(URL.canParse(resource) ? { resource: new URL(resource) } : {}),
        extra: { ...(typeof claims['sub'] === 'string' ? { sub: claims['sub'] } : {}), ...(typeof iss === 'string' ? { iss } : {}), via: 'introspection' },
      };
    },
  };
}
