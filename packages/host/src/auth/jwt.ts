/**
 * JWT access tokens (RFC 9068) verified with `jose` against each trusted
 * issuer's key set: metadata discovered once per issuer, the remote JWKS
 * cached (refreshed every 10 minutes, so rotated keys arrive without a
 * restart) and refetched on an unknown `kid` at most once per cooldown, so a
 * flood of forged `kid`s cannot turn the server into a JWKS-fetching amplifier.
 *
 * This module imports `jose` statically; the command imports this module only
 * when `--auth-issuer` is given, so nobody else loads it.
 */
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { errorMessage } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import { discoverIssuer, sameIssuer, type IssuerMetadata } from './issuerMetadata.js';
import { audiencesOfClaims, clientOfClaims, scopesOfClaims } from './claims.js';

/**
 * Signature algorithms accepted: asymmetric only. `none` and the HMAC family
 * are refused before any key is looked up, so a token "signed" with an
 * issuer's public key as an HMAC secret never verifies.
 */
export const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;

/** Options of {@link createJwtVerifier}. */
export interface JwtVerifierOptions {
  /** Trusted issuers, as configured (`--auth-issuer`). */
  readonly issuers: readonly string[];
  /** Accepted `aud` values (one must be present in the token). */
  readonly audiences: readonly string[];
  /** Leeway for `exp`, `nbf` and `iat`, seconds. */
  readonly clockSkewSeconds: number;
  /** Least time between two JWKS refetches caused by an unknown `kid`, seconds. */
  readonly jwksCooldownSeconds: number;
  /** Bound on each metadata or JWKS fetch, ms. Default 5000. */
  readonly fetchTimeoutMs?: number;
  readonly logger: Logger;
}

/** A JWT verifier, with what it discovered. */
export interface JwtVerifier extends OAuthTokenVerifier {
  /** Discovers every issuer now; resolves with each one's metadata or the error (never rejects). */
  discover(): Promise<Array<{ issuer: string; metadata?: IssuerMetadata; error?: string }>>;
}

interface Trusted {
  readonly configured: string;
  ready: Promise<{ metadata: IssuerMetadata; keys: JWTVerifyGetKey }> | undefined;
  failedAt: number;
}

/** After a failed discovery, requests for that issuer fail fast this long before it is tried again. */
const DISCOVERY_RETRY_MS = 5_000;

const invalid = (description: string) => new OAuthError(OAuthErrorCode.InvalidToken, description);

/** Builds a verifier of JWT access tokens from `issuers`. Discovery is lazy (and retried) unless `discover()` is called. */
export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  const timeout = options.fetchTimeoutMs ?? 5_000;
  const trusted: Trusted[] = options.issuers.map((configured) => ({ configured, ready: undefined, failedAt: 0 }));

  function keysOf(entry: Trusted): Promise<{ metadata: IssuerMetadata; keys: JWTVerifyGetKey }> {
    if (entry.ready) return entry.ready;
    if (Date.now() - entry.failedAt < DISCOVERY_RETRY_MS) return Promise.reject(new Error(`metadata discovery for ${entry.configured} failed moments ago; retrying shortly`));
    const ready = discoverIssuer(entry.configured, timeout).then((metadata) => ({
      metadata,
      keys: createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: timeout, cooldownDuration: options.jwksCooldownSeconds * 1000, cacheMaxAge: 10 * 60_000 }),
    }));
    entry.ready = ready;
    ready.catch(() => {
      entry.ready = undefined;
      entry.failedAt = Date.now();
    });
    return ready;
  }

  async function verifyAccessToken(token: string): Promise<AuthInfo> {
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      throw invalid('The token is not a well-formed JWT');
    }
    const entry = typeof unverified.iss === 'string' ? trusted.find((t) => sameIssuer(t.configured, unverified.iss!)) : undefined;
    if (!entry) throw invalid("The token's issuer is not trusted here");
    let keys: { metadata: IssuerMetadata; keys: JWTVerifyGetKey };
    try {
      keys = await keysOf(entry);
    } catch (error) {
      options.logger.error({ issuer: entry.configured }, `cannot verify tokens of issuer ${entry.configured}: ${errorMessage(error)}`);
      throw invalid("The token cannot be verified now: its issuer's keys are unavailable");
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys.keys, {
        issuer: keys.metadata.issuer,
        audience: [...options.audiences],
        algorithms: [...JWT_ALGORITHMS],
        clockTolerance: options.clockSkewSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      throw rejection(error, entry.configured, options.logger);
    }
    const aud = audiencesOfClaims(payload);
    const resource = options.audiences.find((a) => aud.includes(a));
    return {
      token,
      clientId: clientOfClaims(payload),
      scopes: scopesOfClaims(payload),
      // jose allowed the clock skew on exp; the SDK's own expiry check must agree with it.
      expiresAt: Math.max(payload.exp!, Math.ceil(Date.now() / 1000) + 1),
      ...(resource && URL.canParse(resource) ? { resource: new URL(resource) } : {}),
      extra: { ...(typeof payload.sub === 'string' ? { sub: payload.sub } : {}), iss: payload.iss, via: 'jwt' },
    };
  }

  return {
    verifyAccessToken,
    discover: () =>
      Promise.all(
        trusted.map(async (entry) => {
          try {
            return { issuer: entry.configured, metadata: (await keysOf(entry)).metadata };
          } catch (error) {
            return { issuer: entry.configured, error: errorMessage(error) };
          }
        }),
      ),
  };
}

/** jose's error, as the short reason a client is told (codes, not classes: robust to two copies of jose). */
function rejection(error: unknown, issuer: string, logger: Logger): OAuthError {
  const code = (error as { code?: unknown } | null)?.code;
  const claim = (error as { claim?: unknown } | null)?.claim;
  const reason = (error as { reason?: unknown } | null)?.reason;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return invalid('The token has expired');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (reason === 'missing') return invalid(`The token has no "${String(claim)}" claim`);
      if (claim === 'nbf' || claim === 'iat') return invalid('The token is not yet valid');
      if (claim === 'aud') return invalid('The token was not issued for this resource');
      if (claim === 'iss') return invalid("The token's issuer is not trusted here");
      return invalid(`The token's "${String(claim)}" claim is invalid`);
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return invalid("The token's signature algorithm is not accepted");
    case 'ERR_JOSE_NOT_SUPPORTED':
      return invalid('The token uses a header this server does not support');
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return invalid("The token's signature is invalid");
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return invalid('The token was signed with a key its issuer does not publish');
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return invalid('The token is not a well-formed JWT');
    default:
      // The key set could not be fetched, or something unexpected: fail closed, and tell the operator.
      logger.error({ issuer }, `cannot verify a token of issuer ${issuer}: ${errorMessage(error)}`);
      return invalid("The token cannot be verified now: its issuer's keys are unavailable");
  }
}
