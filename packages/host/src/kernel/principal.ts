/**
 * Who a verified token speaks for, as one string compared wherever principals
 * are: the owner of a 2025 session (here and in a shared session registry),
 * and the principal a `requestState` is bound to.
 *
 * A `sub` means something only to the authority that issued it: `alice` at
 * issuer A is not `alice` at issuer B, and neither is the static token named
 * `alice`. So the principal is qualified by where the identity came from — the
 * token's issuer (`extra.iss`, which the JWT and introspection verifiers set),
 * else the way it was verified (`extra.via`: `static-token` for the tokens
 * file) — then the client and the subject. A verifier of one's own that sets
 * neither gets the client and subject alone, as before.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

/**
 * The principal of a verified token; undefined without one (the anonymous
 * principal). A JSON array, so no client id or subject can be crafted to read
 * as another's. Exported from `@reactor/host` so an extension keeping state
 * per caller (`principalOf(ctx.http?.authInfo)`, with `ctx.tenant`) compares
 * callers as sessions do.
 */
export function principalOf(authInfo: AuthInfo | undefined): string | undefined {
  if (!authInfo) return undefined;
  const extra = authInfo.extra;
  const iss = extra?.['iss'];
  const via = extra?.['via'];
  const sub = extra?.['sub'];
  // An issuer named with or without a trailing slash is one issuer (as the verifiers compare them).
  const authority = typeof iss === 'string' && iss !== '' ? `iss:${iss.replace(/\/+$/, '')}` : typeof via === 'string' && via !== '' ? `via:${via}` : '';
  return JSON.stringify([authority, authInfo.clientId, typeof sub === 'string' ? sub : null]);
}
