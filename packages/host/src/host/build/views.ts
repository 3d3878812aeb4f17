/**
 * A blueprint's views: the `ui://` resource of each served tool's view
 * (MCP Apps), made once per view and marked with the tools it belongs to, so
 * a narrowed blueprint (`tools=`, `exclude_tools=`, read-only) serves a view
 * exactly while one of its tools is served. Toolsets, scopes and tenants need
 * nothing here: a tool they leave out never reaches a blueprint, nor its view.
 */
import { ErrorCodes } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { ProblemLog } from '../../kernel/problems.js';
import type { ResourceSpec } from '../../contract/resource.js';
import { loadViewHtml, VIEW_MIME_TYPE, viewResourceMeta, type ViewSpec } from '../../contract/view.js';
import type { Offered, ServedTool } from './blueprint.js';

const resources = new WeakMap<ViewSpec, ResourceSpec>();

/** The resource serving `view`: listed with the apps MIME type and its `_meta.ui`, read as its HTML (loaded once). */
export function viewResource(view: ViewSpec): ResourceSpec {
  let spec = resources.get(view);
  if (spec === undefined) {
    const meta = viewResourceMeta(view);
    spec = {
      name: view.name ?? (view.uri.slice('ui://'.length) || view.uri),
      uri: view.uri,
      ...(view.title !== undefined ? { title: view.title } : {}),
      ...(view.description !== undefined ? { description: view.description } : {}),
      mimeType: VIEW_MIME_TYPE,
      ...(meta !== undefined ? { meta } : {}),
      read: async () => ({ contents: [{ uri: view.uri, mimeType: VIEW_MIME_TYPE, text: await loadViewHtml(view), ...(meta !== undefined ? { _meta: meta } : {}) }] }),
    };
    resources.set(view, spec);
  }
  return spec;
}

/**
 * The view resources of `tools`, one per URI, each with the tools that show it.
 * Two different views at one URI collide: the first tool's is served (both
 * tools keep the link), and the other is reported.
 */
export function viewResources(tools: readonly ServedTool[], problems: ProblemLog, logger: Logger): Array<Offered<ResourceSpec>> {
  const byUri = new Map<string, { view: ViewSpec; extension: string; tools: string[] }>();
  for (const tool of tools) {
    const view = tool.spec.view;
    if (view === undefined) continue;
    const seen = byUri.get(view.uri);
    if (seen === undefined) {
      byUri.set(view.uri, { view, extension: tool.extension, tools: [tool.name] });
      continue;
    }
    seen.tools.push(tool.name);
    if (seen.view === view || (typeof view.html !== 'function' && String(seen.view.html) === String(view.html))) continue;
    const message = `view "${view.uri}" of tool "${tool.name}" (extension "${tool.extension}") is not the view of tool "${seen.tools[0]}" (extension "${seen.extension}") at the same URI; the first is served for both; hint: give each view its own ui:// URI, or share one defineView(…) between the tools`;
    problems.report(logger, { code: ErrorCodes.VIEW_INVALID, extension: tool.extension, subject: view.uri, message, phase: 'build' }, { level: 'warn', fields: { tool: tool.name, view: view.uri } });
  }
  return [...byUri.values()].map(({ view, extension, tools: names }) => ({ extension, spec: viewResource(view), forTools: names }));
}

/** The resources of a blueprint narrowed to `kept` tools: a view's only while one of its tools is kept. */
export function resourcesForTools(resources: ReadonlyArray<Offered<ResourceSpec>>, kept: ReadonlySet<string>): ReadonlyArray<Offered<ResourceSpec>> {
  if (!resources.some((r) => r.forTools !== undefined)) return resources;
  return resources.filter((r) => r.forTools === undefined || r.forTools.some((name) => kept.has(name)));
}
