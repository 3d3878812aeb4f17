/**
 * `list_server_toolsets`: a read-only tool in no toolset, present whatever the
 * selection, that tells a model what this connection serves and how to
 * reconnect for something else.
 */
import type { BuildOptions } from './hostOptions.js';
import type { HostDescription } from './hostReport.js';
import { nearest } from '../kernel/didYouMean.js';
import { LIST_SERVER_TOOLSETS, serveTool, type ServedTool, type ServeToolOptions } from './build/blueprint.js';
import { selectionToQuery, type Selection } from '../selection/selection.js';

export { LIST_SERVER_TOOLSETS };

/** The sentence telling a model how to pick toolsets with the URL. */
export function howToSelect(selection: Selection): string {
  const current = selectionToQuery(selection);
  return (
    `This connection's selection is ${current === '' ? 'the default (no toolsets named)' : `"?${current}"`}. ` +
    'To change what is served, reconnect to the same MCP URL with a query: "?name" adds a toolset (e.g. "?benchmarks"), ' +
    '"?only=a,b" serves only those (plus always-on toolsets), "?without=name" drops one. ' +
    'The same can be written in the path ("/mcp/only=a,b") or in the X-MCP-Toolsets header.'
  );
}

const outputSchema = {
  type: 'object',
  properties: {
    toolsets: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          title: { type: 'string' },
          description: { type: 'string' },
          default: { type: 'boolean' },
          always: { type: 'boolean' },
          active: { type: 'boolean' },
        },
        required: ['name', 'active'],
      },
    },
    active: { type: 'array', items: { type: 'string' } },
    tools: { type: 'array', items: { type: 'string' } },
    unknown: { type: 'array', items: { type: 'string' } },
    denied: { type: 'array', items: { type: 'string' } },
    conflicts: { type: 'array', items: { type: 'object' } },
    provenance: { type: 'object' },
    unappliedExtensions: { type: 'array', items: { type: 'object' } },
    problems: { type: 'array', items: { type: 'object' } },
    howToSelect: { type: 'string' },
  },
  required: ['toolsets', 'active', 'tools', 'unknown', 'howToSelect'],
};

/** Makes the served tool; `describe` answers for the connection's own selection. */
export function createListToolsetsTool(
  describe: (selection: Selection, tenant: BuildOptions['tenant'], grantedScopes: readonly string[] | undefined, readOnly: boolean) => Promise<HostDescription>,
  options: ServeToolOptions,
): ServedTool {
  return serveTool(
    {
      name: LIST_SERVER_TOOLSETS,
      title: 'List server toolsets',
      description:
        'List the toolsets this MCP server offers, which are active on this connection, which names in its URL are unknown, and how to reconnect with other toolsets.',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      outputSchema,
      handler: () => undefined,
    },
    'host',
    options,
    async (_args, ctx, connection) => {
      // describe() for this connection's own URL, whole, plus how to pick others;
      // with auth, what this token may not have is listed under `denied` too.
      const description = await describe(connection.selection, connection.tenant, ctx.http?.authInfo?.scopes, connection.readOnlyBound === true);
      return { ...description, howToSelect: `${howToSelect(connection.selection)}${suggestionsFor(description)}` };
    },
  );
}

/** For each unknown name of the URL near a declared toolset: ` "sandboxs" is not a toolset here; did you mean "sandbox"?` */
function suggestionsFor(description: HostDescription): string {
  const declared = description.toolsets.map((t) => t.name);
  return description.unknown
    .map((name) => ({ name, meant: nearest(name, declared) }))
    .filter((s): s is { name: string; meant: string } => s.meant !== undefined && s.meant !== s.name)
    .map((s) => ` "${s.name}" is not a toolset here; did you mean "${s.meant}"?`)
    .join('');
}
