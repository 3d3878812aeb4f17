/**
 * Authorization-server metadata discovery: RFC 8414 first, then OpenID
 * Connect Discovery (path insertion, then path appending), as the MCP
 * authorization spec orders them. The document's `issuer` must be the one
 * asked for (RFC 8414 §3.3), so a metadata document cannot speak for another
 * issuer.
 */

/** What the resource server needs of an issuer's metadata. */
export interface IssuerMetadata {
  /** The issuer exactly as the metadata (and so the tokens' `iss`) spells it. */
  readonly issuer: string;
  readonly jwks_uri: string;
  readonly introspection_endpoint?: string;
  /** Where the document was found. */
  readonly discoveredAt: string;
}

/** The well-known URLs tried for `issuer`, in order. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const at = (wellKnown: string) => new URL(`/.well-known/${wellKnown}${path}`, url.origin).href;
  const urls = [at('oauth-authorization-server'), at('openid-configuration')];
  if (path !== '') urls.push(new URL(`${path}/.well-known/openid-configuration`, url.origin).href);
  return urls;
}

/** The two spellings of one issuer (with and without a trailing slash) are one issuer. */
export const sameIssuer = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * Fetches `issuer`'s metadata. Throws an Error saying what was tried and why
 * each failed (the caller logs it; it never reaches a client).
 */
export async function discoverIssuer(issuer: string, timeoutMs: number, fetchImpl: typeof fetch = fetch): Promise<IssuerMetadata> {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let response: Response;
    try {
      response = await fetchImpl(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      failures.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      failures.push(`${url}: HTTP ${response.status}`);
      continue;
    }
    let document: unknown;
    try {
      document = await response.json();
    } catch {
      failures.push(`${url}: not JSON`);
      continue;
    }
    const d = (typeof document === 'object' && document !== null ? document : {}) as Record<string, unknown>;
    if (typeof d.issuer !== 'string' || !sameIssuer(d.issuer, issuer)) {
      failures.push(`${url}: names issuer ${JSON.stringify(d.issuer)}, not ${JSON.stringify(issuer)}`);
      continue;
    }
    if (typeof d.jwks_uri !== 'string') {
      failures.push(`${url}: has no jwks_uri`);
      continue;
    }
    return {
      issuer: d.issuer,
      jwks_uri: new URL(d.jwks_uri).href,
      ...(typeof d.introspection_endpoint === 'string' ? { introspection_endpoint: d.introspection_endpoint } : {}),
      discoveredAt: url,
    };
  }
  throw new Error(`no usable metadata for issuer ${JSON.stringify(issuer)} (${failures.join('; ')})`);
}
