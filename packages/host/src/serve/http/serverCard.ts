/**
 * The MCP Server Card (SEP-2127, maintained in
 * modelcontextprotocol/experimental-ext-server-card): a static description of
 * this server for discovery before connecting — identity, transport, protocol
 * versions, and the Authorization header when auth is on. It never lists
 * tools (the proposal leaves primitives to the protocol's own list calls).
 * Served at the location the proposal reserves, `GET <streamable-http-url>/server-card`,
 * as `application/mcp-server-card+json`, with a strong ETag.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/** The Server Card media type. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
/** The `$schema` every card carries. */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The suffix the proposal reserves below the streamable-HTTP URL. */
export const SERVER_CARD_SUFFIX = 'server-card';

/**
 * The 2026-07-28-era revisions the endpoint serves (through the SDK's `createMcpHandler`).
 * The SDK keeps its list of them internal (`SUPPORTED_MODERN_PROTOCOL_VERSIONS`, apart from the
 * exported `SUPPORTED_PROTOCOL_VERSIONS`, which holds the 2025-era `initialize` versions only), so
 * it is named here; `serverCard.test.ts` checks it against what the server's `server/discover` answers.
 */
const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** Every protocol version the endpoint speaks, newest first (revisions are ISO dates). */
const CARD_PROTOCOL_VERSIONS: readonly string[] = [...new Set([...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS])].sort().reverse();

/** What the deployment says about itself in its card (every field optional). */
export interface ServerCardOptions {
  /** Reverse-DNS name, `namespace/server` (e.g. `io.github.acme/weather`). Default: the request's host name, reversed (`local` for an address or localhost), `/` the server name. */
  readonly name?: string;
  /** Display name. */
  readonly title?: string;
  /** One line, at most 100 characters. Default: says which server this is. */
  readonly description?: string;
  /** The project's web page. */
  readonly websiteUrl?: string;
  /** The source repository. */
  readonly repository?: { readonly url: string; readonly source: string };
}

/** A Server Card (the fields this server fills). */
export interface ServerCard {
  $schema: string;
  name: string;
  version: string;
  description: string;
  title?: string;
  websiteUrl?: string;
  repository?: { url: string; source: string };
  remotes: Array<{
    type: 'streamable-http';
    url: string;
    supportedProtocolVersions: string[];
    headers?: Array<{ name: string; description: string; isRequired: boolean; isSecret: boolean; value: string; variables: Record<string, { description: string; isRequired: boolean; isSecret: boolean }> }>;
  }>;
}

/** `namespace/name` as the card schema wants it: `[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+`. */
export function defaultCardName(hostname: string, serverName: string): string {
  const bare = hostname.replace(/^\[|\]$/g, '');
  // An address or localhost names no one: such a card says `local/…`.
  const local = bare === '' || bare === 'localhost' || isIP(bare) !== 0;
  const namespace = local ? 'local' : bare.split('.').reverse().join('.').replace(/[^a-zA-Z0-9.-]/g, '-');
  const name = serverName.replace(/[^a-zA-Z0-9._-]/g, '-') || 'mcp';
  return `${namespace}/${name}`;
}

/** The card for this server, reached at `endpointUrl`. */
export function serverCard(input: { serverName: string; version: string; endpointUrl: URL; authRequired: boolean; options: ServerCardOptions }): ServerCard {
  const { options } = input;
  const description = (options.description ?? `MCP server "${input.serverName}", served by Reactor MCP; pick toolsets in the URL`).slice(0, 100);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: options.name ?? defaultCardName(input.endpointUrl.hostname, input.serverName),
    version: input.version,
    description,
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.websiteUrl !== undefined ? { websiteUrl: options.websiteUrl } : {}),
    ...(options.repository !== undefined ? { repository: { ...options.repository } } : {}),
    remotes: [
      {
        type: 'streamable-http',
        url: input.endpointUrl.href,
        supportedProtocolVersions: [...CARD_PROTOCOL_VERSIONS],
        ...(input.authRequired
          ? {
              headers: [
                {
                  name: 'Authorization',
                  description: 'A bearer token this server accepts.',
                  isRequired: true,
                  isSecret: true,
                  value: 'Bearer {token}',
                  variables: { token: { description: 'The access token.', isRequired: true, isSecret: true } },
                },
              ],
            }
          : {}),
      },
    ],
  };
}

/** The card as an HTTP answer: its media type, a strong ETag over the body, 304 when `If-None-Match` matches. */
export function serverCardResponse(card: ServerCard, ifNoneMatch: string | null): Response {
  const body = JSON.stringify(card);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const headers = { etag, 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' };
  if (ifNoneMatch !== null && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { ...headers, 'content-type': SERVER_CARD_MEDIA_TYPE } });
}
