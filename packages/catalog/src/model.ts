/**
 * What the page shows, gathered from the app's catalog context without waking
 * anything: declared toolsets (held ones from their manifests), the tools of
 * awake extensions with their provenance and token counts, and the answer
 * for the selection the page was opened with.
 */
import { parseSelection, type CatalogContext, type HostDescription, type ToolAnnotations } from '@reactor/host';

/** One extension offering a toolset. */
export interface ModelExtension {
  readonly name: string;
  readonly version: string;
  readonly package: string | undefined;
  readonly state: string;
}

/** One toolset as the page lists it. */
export interface ModelToolset {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly default: boolean;
  readonly always: boolean;
  readonly scopes: readonly string[];
  /** This request's token lacks its scopes. */
  readonly denied: boolean;
  /** Offered only by held extensions: listed from manifests, tools unknown until a URL asks for it. */
  readonly held: boolean;
  readonly extensions: readonly ModelExtension[];
  /** Tokens of its tools (undefined while held or denied). */
  readonly tokens: number | undefined;
}

/** One tool as the page lists it. */
export interface ModelTool {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly toolset: string;
  readonly annotations: ToolAnnotations | undefined;
  readonly offeredBy: string | undefined;
  readonly extendedBy: readonly string[];
  readonly tokens: number | undefined;
  /** The `ui://` URI of its view (MCP Apps), when it has one. */
  readonly view: string | undefined;
}

/** A tool the host serves itself, in no toolset (`list_server_toolsets`): its own line, so the lines add up to the total. */
export interface ModelHostTool {
  readonly name: string;
  readonly tokens: number | undefined;
}

/** Everything the page renders. */
export interface PageModel {
  readonly server: { readonly name: string; readonly version: string; readonly hostVersion: string };
  /** The origin clients reach this server at, as this request saw it. */
  readonly origin: string;
  readonly routes: CatalogContext['routes'];
  readonly auth: CatalogContext['auth'];
  readonly tokenizer: string | undefined;
  readonly toolsets: readonly ModelToolset[];
  readonly tools: readonly ModelTool[];
  /** The host's own tools the selection serves. */
  readonly hostTools: readonly ModelHostTool[];
  /** The selection the page was opened with, as `/toolsets` answers it. */
  readonly initial: HostDescription;
  /** Dynamic toolsets: what `?dynamic&only=` costs up front, against every toolset awake now. */
  readonly dynamic: DynamicSaving;
}

/** What a dynamic session (`?dynamic&only=`) costs up front, and what it saves. */
export interface DynamicSaving {
  /** The query of a dynamic session that starts with the always-on toolsets alone. */
  readonly query: string;
  /** Tokens of its `tools/list` (the three dynamic-toolset tools, the always-on toolsets and the server's own tools); undefined without a tokenizer. */
  readonly tokens: number | undefined;
  /** Tokens of every toolset on offer whose tools are known (awake, not denied), plus the server's own tools. */
  readonly fullTokens: number | undefined;
}

/**
 * Gathers the page's model. Wakes only what the page's own URL names (like `/toolsets` would).
 *
 * Every figure is what it costs in the selection shown: a toolset the selection serves is
 * counted in the selection's own build (the lines of those toolsets and of the host's own
 * tools add up to the total), and one it does not serve in the build of the selection plus
 * that toolset — what ticking it would serve. Each build applies only the tool extensions
 * that apply there (a `when: 'active'` one only beside its own toolset), whatever else an
 * earlier request woke.
 */
export async function pageModel(context: CatalogContext): Promise<PageModel> {
  const denied = new Set(context.denied);
  const byToolset = new Map<string, ModelExtension[]>();
  for (const extension of context.extensions) {
    for (const toolset of extension.toolsets) {
      const list = byToolset.get(toolset) ?? [];
      list.push({ name: extension.name, version: extension.version, package: extension.package, state: extension.state });
      byToolset.set(toolset, list);
    }
  }
  const isHeld = (name: string) => {
    const offering = (byToolset.get(name) ?? []).filter((e) => e.state !== 'disabled' && e.state !== 'failed');
    return offering.length > 0 && offering.every((e) => e.state === 'held');
  };
  const initial = await context.describe(context.selection);
  const active = new Set(initial.active);
  // Where each toolset is counted: the selection itself, or the selection plus it (`only=` keeps held defaults asleep).
  const builds = new Map<string, HostDescription>();
  for (const t of context.toolsets) {
    if (active.has(t.name)) builds.set(t.name, initial);
    else if (!isHeld(t.name) && !denied.has(t.name)) builds.set(t.name, await context.describe(parseSelection(`only=${[...initial.active, t.name].join(',')}`)));
  }
  // A tool the selection's filter (`tools=`, `exclude_tools=`, `readonly`) leaves out still has a card: its provenance from the unfiltered build.
  const unfiltered = initial.filter && initial.active.length > 0 ? await context.describe(parseSelection(`only=${initial.active.join(',')}`)) : initial;
  const toolsets: ModelToolset[] = context.toolsets
    .map((t) => ({
      name: t.name,
      title: t.title ?? t.name,
      description: t.description ?? '',
      default: t.default !== false,
      always: t.always === true,
      scopes: [...(t.scopes ?? [])],
      denied: denied.has(t.name),
      held: isHeld(t.name),
      extensions: byToolset.get(t.name) ?? [],
      tokens: builds.get(t.name)?.tokens?.toolsets[t.name],
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const tools: ModelTool[] = context.host
    .offeredTools(undefined, { tenant: context.tenant })
    .filter((spec) => !denied.has(spec.toolset))
    .map((spec) => {
      const build = builds.get(spec.toolset);
      const provenance = build?.provenance[spec.name] ?? (active.has(spec.toolset) ? unfiltered.provenance[spec.name] : undefined);
      return {
        name: spec.name,
        title: spec.title,
        description: spec.description,
        toolset: spec.toolset,
        annotations: spec.annotations,
        offeredBy: provenance?.offeredBy,
        extendedBy: provenance?.extendedBy ?? [],
        tokens: build?.tokens?.tools[spec.name],
        view: spec.view?.uri,
      };
    });
  const hostTools = initial.tools.filter((name) => initial.provenance[name]?.offeredBy === 'host').map((name) => ({ name, tokens: initial.tokens?.tools[name] }));
  // Wakes nothing: `only=` names no held toolset.
  const dynamicQuery = 'dynamic&only=';
  const dynamicStart = await context.describe(parseSelection(dynamicQuery));
  const counted = toolsets.filter((t) => !t.denied && t.tokens !== undefined);
  const ownTools = hostTools.filter((t) => !DYNAMIC_TOOLS.has(t.name));
  const fullTokens = initial.tokens ? counted.reduce((sum, t) => sum + (t.tokens ?? 0), 0) + ownTools.reduce((sum, t) => sum + (t.tokens ?? 0), 0) : undefined;
  return {
    server: context.server,
    origin: new URL(context.request.url).origin,
    routes: context.routes,
    auth: context.auth,
    tokenizer: context.tokenizer,
    toolsets,
    tools,
    hostTools,
    initial,
    dynamic: { query: dynamicQuery, tokens: dynamicStart.tokens?.total, fullTokens },
  };
}

const DYNAMIC_TOOLS: ReadonlySet<string> = new Set(['list_available_toolsets', 'get_toolset_tools', 'enable_toolset']);
