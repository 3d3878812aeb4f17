/**
 * What every first-party view does the same way: connect ext-apps' `App`
 * to the host, follow the host's theme, style variables, fonts and size hints
 * (initially and when they change), and hand the tool's result to `render`.
 * (Shared by the first-party extensions: `@reactor/view-kit/view`, inlined into each view by esbuild.)
 */
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';

/** A tag with attributes and children; text children are text nodes, never HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: Array<Node | string | null | undefined | false>): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

/** The text parts of a tool result, joined. */
export const textOf = (result: CallToolResult): string => result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');

function followHost(context: McpUiHostContext | undefined): void {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  // Either a fixed size or a maximum, per dimension (McpUiHostContext.containerDimensions).
  const size: { height?: number; maxHeight?: number; width?: number; maxWidth?: number } = context.containerDimensions ?? {};
  const root = document.documentElement.style;
  const height = size.height ?? size.maxHeight;
  if (height !== undefined) root.setProperty('--view-max-height', `${height}px`);
  const width = size.width ?? size.maxWidth;
  if (width !== undefined) root.setProperty('--view-max-width', `${width}px`);
  const insets = context.safeAreaInsets;
  if (insets) document.body.style.padding = `${insets.top}px ${insets.right}px ${insets.bottom}px ${insets.left}px`;
}

/** Starts the view: `render` gets each tool result (and the tool's arguments, once they came). */
export function startView(name: string, render: (result: CallToolResult, app: App, input: Record<string, unknown> | undefined) => void): App {
  const app = new App({ name, version: '1.0.0' }, {}, { autoResize: true });
  const main = document.getElementById('app')!;
  main.append(h('p', { class: 'muted' }, 'Waiting for the tool’s result…'));
  let input: Record<string, unknown> | undefined;
  app.ontoolinput = (params) => {
    input = params.arguments;
  };
  app.ontoolresult = (result) => {
    main.replaceChildren();
    if (result.isError) main.append(h('p', { class: 'error', role: 'alert' }, textOf(result) || 'The tool failed.'));
    else render(result, app, input);
  };
  app.ontoolcancelled = () => main.replaceChildren(h('p', { class: 'muted' }, 'The call was cancelled.'));
  app.onhostcontextchanged = (context) => followHost(context);
  app.connect().then(
    () => followHost(app.getHostContext()),
    (error: unknown) => main.replaceChildren(h('p', { class: 'error', role: 'alert' }, `Could not connect to the host: ${error instanceof Error ? error.message : String(error)}`)),
  );
  return app;
}
