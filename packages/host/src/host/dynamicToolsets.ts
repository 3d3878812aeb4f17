/**
 * Dynamic toolsets (`?dynamic`, `--dynamic-toolsets`): three tools, named as
 * GitHub's MCP server names them, with which the model turns toolsets on
 * within its session — `list_available_toolsets`, `get_toolset_tools` and
 * `enable_toolset`. What can be turned on is bounded exactly as a URL is: the
 * tenant's declared toolsets, less those the token's scopes deny; the
 * connection's `tools=`/`exclude_tools=` and read-only still narrow them.
 *
 * Turning one on is a selection like any other (the connection's, with the
 * toolset added), so its surface comes from the host's bounded blueprint
 * cache. A 2025 session switches to it and is told `tools/list_changed`; a
 * request without a session (2026-07-28, stateless 2025) cannot be changed,
 * so the answer names the selection to send next.
 */
import type { TokenCounter } from '../contract/tokens.js';
import { deniedToolsets, type Toolset } from '../contract/toolset.js';
import { ErrorCodes, ReactorError } from '../kernel/errors.js';
import { nearest } from '../kernel/didYouMean.js';
import type { Problem } from '../kernel/problems.js';
import { selectionToQuery, withToolsetOn, type Selection } from '../selection/selection.js';
import { applyToolFilter, toolFilterOf } from '../selection/toolFilter.js';
import { DYNAMIC_TOOLSET_TOOLS, serveTool, type Blueprint, type ConnectionInfo, type ServedTool, type ServeToolOptions } from './build/blueprint.js';
import type { ToolContext } from '../contract/tool.js';

export { DYNAMIC_TOOLSET_TOOLS };

/** What the three tools need of the host. */
export interface DynamicToolsetsHost {
  declared(tenant: string | undefined): Toolset[];
  /** The served tools the awake extensions offer in `toolset` (none for a held one). */
  offered(toolset: string, tenant: string | undefined): ServedTool[];
  /** True while an extension declaring `toolset` is held (not yet woken). */
  held(toolset: string, tenant: string | undefined): boolean;
  /** Fires `onToolset:<name>` (wakes a held extension). */
  wake(toolset: string, tenant: string | undefined): Promise<void>;
  /** Builds (or finds cached) the blueprint of a selection. */
  build(selection: Selection, options: { tenant: string | undefined; denied: readonly string[]; readOnly: boolean }): Promise<Blueprint>;
  /** The problems the host has contained, to explain a toolset that would not load. */
  problems(): Problem[];
  tokenCounter(): TokenCounter | undefined;
}

const toolsetArgument = {
  type: 'object',
  properties: { toolset: { type: 'string', description: 'The toolset name, as list_available_toolsets gives it.' } },
  required: ['toolset'],
} as const;

/** The three tools, made once per host. */
export function createDynamicToolsetTools(host: DynamicToolsetsHost, options: ServeToolOptions): ServedTool[] {
  const [LIST, GET, ENABLE] = DYNAMIC_TOOLSET_TOOLS;
  const list = serveTool(
    {
      name: LIST,
      title: 'List available toolsets',
      description: 'List the toolsets this server can turn on for this session, with each one\'s description, tool count and whether it is already enabled. Turn one on with enable_toolset.',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: () => undefined,
    },
    'host',
    options,
    (_args, ctx, connection) => {
      const counter = host.tokenCounter();
      const denied = deniedFor(host, connection, ctx);
      const toolsets = host.declared(connection.tenant).filter((t) => !denied.has(t.name)).map((t) => {
        const tools = toolsFor(host, t.name, connection);
        return {
          name: t.name,
          ...(t.title !== undefined ? { title: t.title } : {}),
          description: t.description,
          enabled: connection.toolsets.has(t.name),
          // A held extension's tools are known once it wakes (get_toolset_tools or enable_toolset wakes it).
          ...(host.held(t.name, connection.tenant) ? { toolCount: null, loaded: false } : { toolCount: tools.length }),
          // The catalog's figure: each tools/list entry as compact JSON.
          ...(counter && !host.held(t.name, connection.tenant) ? { tokens: tools.reduce((sum, tool) => sum + counter.count(JSON.stringify(tool.listEntry)), 0) } : {}),
        };
      });
      return { toolsets, ...(counter ? { tokenizer: counter.name } : {}), howToEnable: 'Call enable_toolset with { "toolset": "<name>" } to add a toolset\'s tools to this session.' };
    },
  );
  const get = serveTool(
    {
      name: GET,
      title: 'Get toolset tools',
      description: 'List the tools a toolset would add to this session: names and one-line descriptions.',
      inputSchema: toolsetArgument,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: () => undefined,
    },
    'host',
    options,
    async (args, ctx, connection) => {
      const name = requireToolset(host, String(args['toolset']), connection, ctx);
      if (host.held(name, connection.tenant)) await host.wake(name, connection.tenant);
      const tools = toolsFor(host, name, connection).map((t) => ({ name: t.name, description: firstLine(t.listEntry.description ?? '') }));
      return { toolset: name, enabled: connection.toolsets.has(name), tools };
    },
  );
  const enable = serveTool(
    {
      name: ENABLE,
      title: 'Enable toolset',
      description: 'Turn a toolset on for this session: its tools are added and the client is told the tool list changed.',
      inputSchema: toolsetArgument,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: () => undefined,
    },
    'host',
    options,
    async (args, ctx, connection) => {
      const name = requireToolset(host, String(args['toolset']), connection, ctx);
      const denied = [...deniedFor(host, connection, ctx)];
      if (connection.toolsets.has(name)) return { toolset: name, enabled: true, alreadyEnabled: true, toolsets: [...connection.toolsets] };
      const selection = withToolsetOn(connection.selection, name);
      const blueprint = await host.build(selection, { tenant: connection.tenant, denied, readOnly: connection.readOnlyBound === true });
      if (!blueprint.toolsets.has(name)) {
        const why = host.problems().filter((p) => p.phase === 'activation' || p.phase === 'startup').map((p) => p.message).slice(-3);
        throw new ReactorError(ErrorCodes.TOOL_FAILED, {
          subject: `toolset "${name}"`,
          problem: `could not be loaded, so it was not enabled${why.length > 0 ? ` (${why.join('; ')})` : ''}`,
          hint: 'carry on with the toolsets you have, or ask the server\'s operator to check its extensions (GET /healthz/extensions lists their problems)',
        });
      }
      const added = blueprint.tools.filter((t) => t.spec.toolset === name).map((t) => t.name);
      const query = selectionToQuery(selection);
      if (connection.surface) {
        const lists = connection.surface.switchTo(blueprint, selection);
        await ctx.mcpReq.notify({ method: 'notifications/tools/list_changed' });
        if (lists.resources) await ctx.mcpReq.notify({ method: 'notifications/resources/list_changed' });
        if (lists.prompts) await ctx.mcpReq.notify({ method: 'notifications/prompts/list_changed' });
        return { toolset: name, enabled: true, tools: added, toolsets: [...blueprint.toolsets], selection: query };
      }
      // No session to change (2026-07-28, or a stateless 2025 request): the client sends this selection next.
      return {
        toolset: name,
        enabled: false,
        tools: added,
        toolsets: [...blueprint.toolsets],
        selection: query,
        howToUse: `This connection has no session to change. Send your next requests to the same MCP URL with the query "?${query}" (or the X-MCP-Toolsets header "${query}") to be served these toolsets.`,
      };
    },
  );
  return [list, get, enable];
}

/** The toolsets this connection may not have: those it was minted without, and those its token's scopes deny now. */
function deniedFor(host: DynamicToolsetsHost, connection: ConnectionInfo, ctx: ToolContext): Set<string> {
  const denied = new Set(connection.denied ?? []);
  const scopes = ctx.http?.authInfo?.scopes;
  if (scopes !== undefined) for (const name of deniedToolsets(host.declared(connection.tenant), scopes).keys()) denied.add(name);
  return denied;
}

/** The declared toolset `asked` names, or the model's mistake explained (unknown, or denied by the token's scopes). */
function requireToolset(host: DynamicToolsetsHost, asked: string, connection: ConnectionInfo, ctx: ToolContext): string {
  const declared = host.declared(connection.tenant);
  const denied = deniedFor(host, connection, ctx);
  const available = declared.map((t) => t.name).filter((n) => !denied.has(n));
  const toolset = declared.find((t) => t.name === asked);
  if (!toolset) {
    const meant = nearest(asked, available);
    throw new ReactorError(ErrorCodes.TOOL_FAILED, {
      subject: `toolset "${asked}"`,
      problem: 'is not offered by this server',
      expected: `one of ${available.map((n) => `"${n}"`).join(', ') || '(none)'}`,
      hint: meant !== undefined ? `did you mean "${meant}"?` : 'call list_available_toolsets to see them',
    });
  }
  if (denied.has(asked)) {
    const scopes = toolset.scopes ?? [];
    throw new ReactorError(ErrorCodes.TOOL_FAILED, {
      subject: `toolset "${asked}"`,
      problem: `may not be turned on with this connection's token${scopes.length > 0 ? ` (it needs scope(s) ${scopes.join(' ')})` : ''}`,
      expected: `one of ${available.map((n) => `"${n}"`).join(', ') || '(none)'}`,
      hint: 'use another toolset, or reconnect with a token that has the scope',
    });
  }
  return asked;
}

/** The tools `toolset` adds under this connection's tool filters and read-only bound. */
function toolsFor(host: DynamicToolsetsHost, toolset: string, connection: ConnectionInfo): ServedTool[] {
  const offered = host.offered(toolset, connection.tenant);
  const filter = toolFilterOf(connection.selection, connection.readOnlyBound === true);
  return filter ? applyToolFilter(offered, filter).kept : offered;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.trim();
}
