/**
 * The seam for a catalog page at `GET /`: the core renders nothing itself (no
 * HTML, no tokenizer in `@reactor/host`); a renderer such as `@reactor/catalog`
 * gets what the page may show for this request — `describe()` for this
 * tenant and token, the routes, whether auth is on — and answers with a
 * `Response`. The app has already applied DNS-rebinding protection, auth and
 * CORS by then.
 */
import type { ExtensionStatus, HostDescription, McpHost } from '../../host/host.js';
import type { Selection } from '../../selection/selection.js';
import type { Toolset } from '../../contract/toolset.js';

/** What a catalog renderer gets for one request. */
export interface CatalogContext {
  /** The request (its URL carries the selection the page was opened with: `/?benchmarks`). */
  readonly request: Request;
  /** The server name and version clients see. */
  readonly server: { readonly name: string; readonly version: string; readonly hostVersion: string };
  /** The tenant of the request. */
  readonly tenant: string | undefined;
  /** The selection in the page's own query string (after `ignoreQueryKeys`, before `defaultSelection`). */
  readonly selection: Selection;
  /** Every declared toolset this tenant sees (held extensions included, nothing woken), with its `scopes`. */
  readonly toolsets: readonly Toolset[];
  /** Every extension's status (`held` ones are listed from their manifests, not woken). */
  readonly extensions: readonly ExtensionStatus[];
  /** Toolsets this request's token may not have. */
  readonly denied: readonly string[];
  /**
   * `describe()` as `/toolsets` answers it for this tenant and token (denied
   * toolsets removed, `tokens` counted when the app has a `tokenCounter`).
   * Describing may wake the held extensions a selection names, like `/toolsets`.
   */
  describe(selection: Selection): Promise<HostDescription>;
  /** The app's routes. */
  readonly routes: { readonly mcp: string; readonly toolsets: string | undefined; readonly serverCard: string | undefined };
  /** Auth on the MCP routes: when on, clients must send `Authorization: Bearer …`. */
  readonly auth: { readonly required: boolean; readonly protectsToolsets: boolean };
  /** The tokenizer's name when the app counts tokens. */
  readonly tokenizer: string | undefined;
  /** The host (for renderers that need more than the above). */
  readonly host: McpHost;
}

/** Renders the catalog page for a request. */
export type CatalogRenderer = ((context: CatalogContext) => Response | Promise<Response>) & {
  /**
   * Optional: the page a browser (`Accept: text/html`) gets when the catalog
   * wants a token the request did not bring (or brought an invalid one). The
   * app keeps the refusal's status (401) and its `WWW-Authenticate` header
   * whatever this answers; clients that do not ask for HTML get the JSON
   * refusal as before.
   */
  readonly unauthorized?: (context: Pick<CatalogContext, 'request' | 'server' | 'routes' | 'auth'>) => Response | Promise<Response>;
};
