/**
 * Bearer-token authentication for the app, built on the SDK's resource-server
 * helpers: one gate applied to every MCP route and every selection form alike,
 * the RFC 9728 protected-resource metadata document, and the toolset scope
 * check (a token lacking a toolset's `scopes` does not get that toolset).
 */
import type { OptionKeys } from '../optionKeys.js';
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  verifyBearerToken,
  type AuthInfo,
  type OAuthMetadata,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../errors.js';
import type { Logger } from '../logger.js';
import { namesInSelection, type Selection } from '../selection.js';
import { deniedToolsets, type Toolset } from '../toolset.js';

export type { AuthInfo, OAuthTokenVerifier };

/**
 * The `auth` option of `createMcpApp`. Give the verifier either as `verifier`
 * or by putting `verifyAccessToken` on this object itself.
 *
 * The verifier must fill `AuthInfo.expiresAt` (epoch seconds): the SDK refuses
 * tokens without an expiry. A verifier that throws anything but an SDK
 * `OAuthError` is taken to reject the token (401); its message is logged, not sent.
 */
export interface McpAppAuthOptions {
  /** Verifies an access token (the SDK's `OAuthTokenVerifier`). */
  readonly verifier?: OAuthTokenVerifier;
  /** Same as `verifier.verifyAccessToken`, for `auth: { verifyAccessToken }`. */
  readonly verifyAccessToken?: OAuthTokenVerifier['verifyAccessToken'];
  /** Scopes every request needs (else 403 `insufficient_scope`). */
  readonly requiredScopes?: readonly string[];
  /** Accept only tokens whose `AuthInfo.resource` is this (RFC 8707 audience). */
  readonly expectedResource?: URL;
  /**
   * The public URL of the MCP endpoint (e.g. `https://mcp.example.com/mcp`).
   * With it, 401 challenges advertise the metadata document
   * `/.well-known/oauth-protected-resource/mcp`, which the app serves when
   * `oauthMetadata` or `authorizationServers` says where tokens come from.
   */
  readonly resourceServerUrl?: URL | string;
  /** Overrides the metadata URL advertised in challenges. */
  readonly resourceMetadataUrl?: string;
  /** The authorization server's RFC 8414 metadata; also served at `/.well-known/oauth-authorization-server`. */
  readonly oauthMetadata?: OAuthMetadata;
  /** Issuer URLs of the authorization servers, when `oauthMetadata` is not given. */
  readonly authorizationServers?: readonly string[];
  /** `scopes_supported` in the metadata document. */
  readonly scopesSupported?: readonly string[];
  /** `resource_name` in the metadata document. */
  readonly resourceName?: string;
  /** `resource_documentation` in the metadata document. */
  readonly serviceDocumentationUrl?: URL | string;
  /** Allow a non-HTTPS issuer in `oauthMetadata` (local testing only). */
  readonly dangerouslyAllowInsecureIssuerUrl?: boolean;
  /** Whether `GET /toolsets` needs a token. Default `true` (it reveals the surface). */
  readonly protectToolsets?: boolean;
  /** Whether `GET /healthz` needs a token. Default `false` (probes carry none). */
  readonly protectHealthz?: boolean;
}

/** Every key of {@link McpAppAuthOptions} (`createMcpApp` refuses others). */
export const AUTH_OPTION_KEYS: OptionKeys<McpAppAuthOptions> = {
  verifier: true,
  verifyAccessToken: true,
  requiredScopes: true,
  expectedResource: true,
  resourceServerUrl: true,
  resourceMetadataUrl: true,
  oauthMetadata: true,
  authorizationServers: true,
  scopesSupported: true,
  resourceName: true,
  serviceDocumentationUrl: true,
  dangerouslyAllowInsecureIssuerUrl: true,
  protectToolsets: true,
  protectHealthz: true,
};

/** The resolved gate. */
export interface AuthGate {
  /** The verified token, or the 401/403 challenge to send. */
  verify(request: Request): Promise<AuthInfo | Response>;
  /** The metadata documents, when `pathname` is one of them. */
  metadata(request: Request): Response | undefined;
  /** Whether `pathname` is a metadata route this gate serves. */
  servesMetadata(pathname: string): boolean;
  /** A 403 `insufficient_scope` challenge naming `scopes`. */
  insufficientScope(scopes: readonly string[], description: string): Response;
  readonly protectToolsets: boolean;
  readonly protectHealthz: boolean;
}

function invalid(problem: string, received: unknown, hint: string): ReactorError {
  return new ReactorError(ErrorCodes.OPTION_INVALID, { subject: 'createMcpApp option "auth"', problem, received: describeValue(received), hint });
}

const toUrl = (value: URL | string, name: string): URL => {
  try {
    return value instanceof URL ? value : new URL(value);
  } catch {
    throw invalid(`has an invalid "${name}"`, value, 'give an absolute URL such as "https://mcp.example.com/mcp"');
  }
};

/** Checks the `auth` option and builds its gate. Throws `REACTOR_OPTION_INVALID` on a bad option. */
export function createAuthGate(options: McpAppAuthOptions, logger: Logger): AuthGate {
  const verifyAccessToken = options.verifier?.verifyAccessToken.bind(options.verifier) ?? options.verifyAccessToken?.bind(options);
  if (typeof verifyAccessToken !== 'function') {
    throw invalid('has no token verifier', options.verifier ?? options.verifyAccessToken, 'pass auth: { verifier: { verifyAccessToken(token) { … } } } or auth: { verifyAccessToken(token) { … } }');
  }
  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(token) {
      try {
        return await verifyAccessToken(token);
      } catch (error) {
        if (error instanceof OAuthError) throw error;
        logger.warn({ err: error instanceof Error ? error : undefined }, `the token verifier rejected a token: ${errorMessage(error)}`);
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token');
      }
    },
  };
  const resourceServerUrl = options.resourceServerUrl === undefined ? undefined : toUrl(options.resourceServerUrl, 'resourceServerUrl');
  const resourceMetadataUrl = options.resourceMetadataUrl ?? (resourceServerUrl ? getOAuthProtectedResourceMetadataUrl(resourceServerUrl) : undefined);
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const bearer = { verifier, requiredScopes, resourceMetadataUrl, expectedResource: options.expectedResource };

  const metadata = metadataServer(options, resourceServerUrl);
  return {
    async verify(request) {
      // OAuth 2.1 and the MCP authorization spec: never a token in the URL (it ends up in logs and histories).
      if (new URL(request.url).searchParams.has('access_token')) {
        return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidRequest, 'Access tokens are not accepted in the query string; send them in the Authorization header'), { requiredScopes, resourceMetadataUrl });
      }
      try {
        return await verifyBearerToken(bearerCredentials(request.headers.get('authorization')), bearer);
      } catch (error) {
        return bearerAuthChallengeResponse(error, { requiredScopes, resourceMetadataUrl });
      }
    },
    metadata: metadata.respond,
    servesMetadata: metadata.serves,
    insufficientScope(scopes, description) {
      return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InsufficientScope, description), { requiredScopes: [...scopes], resourceMetadataUrl });
    },
    protectToolsets: options.protectToolsets ?? true,
    protectHealthz: options.protectHealthz ?? false,
  };
}

/**
 * RFC 6750 §2.1, strictly: `Bearer`, spaces, one b64token — nothing after it.
 * The SDK's own parse keeps the second space-separated word and ignores the
 * rest, so `Bearer <token> junk` or two comma-joined credentials would pass;
 * here they are refused (an ambiguous credential is not a credential).
 */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** The header normalized for `verifyBearerToken`: undefined when absent; throws `invalid_token` when malformed. */
function bearerCredentials(header: string | null): string | undefined {
  const value = (header ?? '').trim();
  if (value === '') return undefined;
  const token = BEARER.exec(value)?.[1];
  if (token === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, "Invalid Authorization header format, expected 'Bearer TOKEN'");
  return `Bearer ${token}`;
}

interface MetadataServer {
  serves(pathname: string): boolean;
  respond(request: Request): Response | undefined;
}

function metadataServer(options: McpAppAuthOptions, resourceServerUrl: URL | undefined): MetadataServer {
  const none: MetadataServer = { serves: () => false, respond: () => undefined };
  if (!resourceServerUrl) return none;
  const documentPath = new URL(getOAuthProtectedResourceMetadataUrl(resourceServerUrl)).pathname;
  const serviceDocumentationUrl = options.serviceDocumentationUrl === undefined ? undefined : toUrl(options.serviceDocumentationUrl, 'serviceDocumentationUrl');
  if (options.oauthMetadata) {
    const sdkOptions = {
      oauthMetadata: options.oauthMetadata,
      resourceServerUrl,
      ...(options.scopesSupported ? { scopesSupported: [...options.scopesSupported] } : {}),
      ...(options.resourceName !== undefined ? { resourceName: options.resourceName } : {}),
      ...(serviceDocumentationUrl ? { serviceDocumentationUrl } : {}),
      ...(options.dangerouslyAllowInsecureIssuerUrl === true ? { dangerouslyAllowInsecureIssuerUrl: true } : {}),
    };
    try {
      buildOAuthProtectedResourceMetadata(sdkOptions); // fail at start-up, not on the first request
    } catch (error) {
      throw invalid(`has unusable "oauthMetadata" (${errorMessage(error)})`, options.oauthMetadata.issuer, 'the issuer must be an https URL (or set dangerouslyAllowInsecureIssuerUrl for local tests)');
    }
    const paths = new Set([documentPath, '/.well-known/oauth-authorization-server']);
    return { serves: (p) => paths.has(trimSlash(p)), respond: (request) => oauthMetadataResponse(request, sdkOptions) };
  }
  if (!options.authorizationServers || options.authorizationServers.length === 0) return none;
  const document = {
    resource: resourceServerUrl.href,
    authorization_servers: [...options.authorizationServers],
    ...(options.scopesSupported ? { scopes_supported: [...options.scopesSupported] } : {}),
    ...(options.resourceName !== undefined ? { resource_name: options.resourceName } : {}),
    ...(serviceDocumentationUrl ? { resource_documentation: serviceDocumentationUrl.href } : {}),
  };
  const respond = (request: Request): Response | undefined => {
    if (trimSlash(new URL(request.url).pathname) !== documentPath) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return Response.json({ error: 'method_not_allowed', error_description: `The method ${request.method} is not allowed for this endpoint` }, { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    return Response.json(document, { headers: { 'access-control-allow-origin': '*' } });
  };
  return { serves: (p) => trimSlash(p) === documentPath, respond };
}

const trimSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/**
 * Who a session belongs to: the token's client plus its subject when the
 * verifier reports one (`extra.sub`), so a refreshed token keeps its session
 * and another user's token does not get it. Undefined without auth (the
 * anonymous principal). Exported so an extension keeping state per caller
 * (`principalOf(ctx.http?.authInfo)`, with `ctx.tenant`) compares callers as
 * sessions do.
 */
export function principalOf(authInfo: AuthInfo | undefined): string | undefined {
  if (!authInfo) return undefined;
  const sub = authInfo.extra?.['sub'];
  return typeof sub === 'string' ? `${authInfo.clientId}\u0000${sub}` : authInfo.clientId;
}

/** What the toolset scopes make of a request's selection. */
export type ScopedSelection =
  | { readonly ok: true; readonly selection: Selection; readonly denied: readonly string[] }
  | { readonly ok: false; readonly toolsets: readonly string[]; readonly scopes: readonly string[] };

/**
 * Applies toolset scopes: a denied toolset the request names explicitly
 * refuses the request (403); the others — always-on ones included — are left
 * out of what it gets, and the host lists them under `denied`.
 *
 * @param asked - the selection the request itself wrote (before `defaultSelection`)
 * @param selection - the selection it will be served (after `defaultSelection`)
 */
export function applyToolsetScopes(asked: Selection, selection: Selection, declared: readonly Toolset[], authInfo: AuthInfo | undefined): ScopedSelection {
  const denied = deniedToolsets(declared, authInfo?.scopes);
  if (denied.size === 0) return { ok: true, selection, denied: [] };
  const refused = [...namesInSelection(asked)].filter((name) => denied.has(name));
  if (refused.length > 0) {
    const toolsets = [...new Set(refused)].sort();
    return { ok: false, toolsets, scopes: [...new Set(toolsets.flatMap((name) => denied.get(name) ?? []))] };
  }
  return { ok: true, selection, denied: [...denied.keys()] };
}
