/**
 * `@reactor/host/auth`: the token verifiers the `reactor-mcp-server` command
 * uses, as a library for an application that calls `createMcpApp` itself.
 * Each is the SDK's `OAuthTokenVerifier`: pass one as `auth.verifier`.
 *
 * - {@link createJwtVerifier}: JWT access tokens checked against each
 *   trusted issuer's JWKS (discovered from its metadata), audience and expiry;
 * - {@link createIntrospectionVerifier}: opaque tokens through RFC 7662
 *   introspection;
 * - {@link StaticTokens}: a tokens file of SHA-256 hashes with scopes
 *   (`hashToken` makes an entry's hash).
 *
 * This entry imports `jose`; the package root does not export it.
 */
export { createJwtVerifier, JWT_ALGORITHMS } from './jwt.js';
export type { JwtVerifier, JwtVerifierOptions } from './jwt.js';
export { createIntrospectionVerifier } from './introspection.js';
export type { IntrospectionVerifierOptions } from './introspection.js';
export { StaticTokens, hashToken, readTokensFile } from './staticTokens.js';
export type { StaticTokenEntry } from './staticTokens.js';
export { discoverIssuer } from './issuerMetadata.js';
export type { IssuerMetadata } from './issuerMetadata.js';
