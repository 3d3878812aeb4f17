/**
 * Reading the claims of a verified token (a JWT payload or an RFC 7662
 * introspection response) the same way, whatever the provider's dialect.
 */

/**
 * The token's scopes: `scope` (RFC 9068 / RFC 7662, a space-separated string)
 * and `scp` (Entra ID's space-separated string, Okta's array), united.
 */
export function scopesOfClaims(claims: Readonly<Record<string, unknown>>): string[] {
  const scopes = new Set<string>();
  for (const value of [claims['scope'], claims['scp']]) {
    const items = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    for (const item of items) if (item !== '') scopes.add(item);
  }
  return [...scopes];
}

/** The token's audiences (`aud`: a string or an array of strings). */
export function audiencesOfClaims(claims: Readonly<Record<string, unknown>>): string[] {
  const aud = claims['aud'];
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** Who the token was issued to: `client_id`, else `azp`, else Entra ID's `appid`, else `sub`. */
export function clientOfClaims(claims: Readonly<Record<string, unknown>>): string {
  return [claims['client_id'], claims['azp'], claims['appid'], claims['sub']].find((v): v is string => typeof v === 'string' && v !== '') ?? 'unknown';
}
