/**
 * Views (MCP Apps) that an `onServer` hook's tools link to: a hook registers
 * a tool whose `_meta.ui.resourceUri` (or the legacy `_meta["ui/resourceUri"]`)
 * names a `ui://` resource, as ext-apps' `registerAppTool` does, and registers
 * that resource on the same server (`registerAppResource`, or
 * `server.registerResource`). Such a view is served with its tool, and the
 * server states the MCP Apps capability for it. A link to a resource this
 * server does not serve is dropped from the tool (so no client is sent to a
 * view it cannot read) and reported, naming the hook's extension, the tool
 * and the URI.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { VIEW_URI_META_KEY } from '../../contract/view.js';
import { ErrorCodes } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { ProblemLog } from '../../kernel/problems.js';
import type { Blueprint } from '../build/blueprint.js';
import type { ServerToolTable } from './toolTable.js';

/** The `ui://` URI a tool's `_meta` links to, if any (current key first, then the legacy one). */
export function linkedViewUri(meta: Record<string, unknown> | undefined): string | undefined {
  const ui = meta?.['ui'];
  const current = typeof ui === 'object' && ui !== null ? (ui as { resourceUri?: unknown }).resourceUri : undefined;
  const uri = current ?? meta?.[VIEW_URI_META_KEY];
  return typeof uri === 'string' ? uri : undefined;
}

/** `_meta` without its view link (both keys); undefined when nothing else is left. */
function withoutViewLink(meta: Record<string, unknown>): Record<string, unknown> | undefined {
  const { [VIEW_URI_META_KEY]: _legacy, ui, ...rest } = meta;
  if (typeof ui === 'object' && ui !== null) {
    const { resourceUri: _uri, ...uiRest } = ui as Record<string, unknown>;
    if (Object.keys(uiRest).length > 0) rest['ui'] = uiRest;
  } else if (ui !== undefined) rest['ui'] = ui;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * Watches the resource URIs hooks register on `server` (whichever
 * `registerResource` serves them: the host's routing or the SDK's own), and
 * checks the view links of the tools hooks add or change.
 */
export class HookViews {
  private readonly registered = new Set<string>();
  private readonly checked = new Set<string>();

  constructor(
    server: McpServer,
    private readonly blueprint: Blueprint,
    private readonly table: ServerToolTable,
    private readonly problems: ProblemLog,
  ) {
    const register = server.registerResource as (...args: unknown[]) => unknown;
    const registered = this.registered;
    Object.defineProperty(server, 'registerResource', {
      value(this: McpServer, name: unknown, uriOrTemplate: unknown, ...rest: unknown[]) {
        const handle = register.call(this, name, uriOrTemplate, ...rest);
        if (typeof uriOrTemplate === 'string') registered.add(uriOrTemplate);
        return handle;
      },
      configurable: true,
      writable: true,
      enumerable: false,
    });
  }

  /**
   * After `extension`'s hook ran: each tool it added or changed that links a
   * view is kept when the view is served here, unlinked and reported when not.
   * Returns true when a kept link is to a view only a hook serves (the server
   * must then state the MCP Apps capability).
   */
  check(extension: string, logger: Logger): boolean {
    let hookView = false;
    for (const { name, listEntry } of this.table.ownListed()) {
      const meta = listEntry._meta;
      const uri = linkedViewUri(meta);
      if (uri === undefined || meta === undefined) continue;
      const key = `${name}\u0000${uri}`;
      if (this.checked.has(key)) continue;
      this.checked.add(key);
      if (this.blueprint.resources.some((r) => r.spec.uri === uri)) continue;
      if (this.registered.has(uri)) {
        hookView = true;
        continue;
      }
      this.table.setListMeta(name, withoutViewLink(meta));
      const message = `extension "${extension}": onServer gave tool "${name}" a view at "${uri}" that this server does not serve; the link is dropped and the tool is served without a view; hint: register the view's resource in the same hook (server.registerResource, or ext-apps' registerAppResource), or declare the tool in the extension's tools() with view: defineView(…)`;
      this.problems.report(logger, { code: ErrorCodes.VIEW_INVALID, extension, subject: uri, message, phase: 'server' }, { level: 'warn', fields: { tool: name, view: uri } });
    }
    return hookView;
  }
}
