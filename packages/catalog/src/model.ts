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
  /** The selection the page was opened with, as `/toolsets` answers it. */
  readonly initial: HostDescription;
}

/** Gathers the page's model. Wakes only what the page's own URL names (like `/toolsets` would). */
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
  // Everything awake at once, so per-toolset counts come from one blueprint; `only=` keeps held defaults asleep.
  const awake = context.toolsets.filter((t) => !isHeld(t.name) && !denied.has(t.name)).map((t) => t.name);
  const everything = await context.describe(parseSelection(`only=${awake.join(',')}`));
  const initial = await context.describe(context.selection);
  const tokens = everything.tokens;
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
      tokens: tokens?.toolsets[t.name] ?? initial.tokens?.toolsets[t.name],
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const tools: ModelTool[] = context.host
    .offeredTools(undefined, { tenant: context.tenant })
    .filter((spec) => !denied.has(spec.toolset))
    .map((spec) => ({
      name: spec.name,
      title: spec.title,
      description: spec.description,
      toolset: spec.toolset,
      annotations: spec.annotations,
      offeredBy: everything.provenance[spec.name]?.offeredBy ?? initial.provenance[spec.name]?.offeredBy,
      extendedBy: everything.provenance[spec.name]?.extendedBy ?? initial.provenance[spec.name]?.extendedBy ?? [],
      tokens: tokens?.tools[spec.name] ?? initial.tokens?.tools[spec.name],
    }));
  return {
    server: context.server,
    origin: new URL(context.request.url).origin,
    routes: context.routes,
    auth: context.auth,
    tokenizer: context.tokenizer,
    toolsets,
    tools,
    initial,
  };
}
