/// <reference lib="dom" />
/**
 * The host side of the views test, bundled by esbuild for the browser: a page
 * that does what an MCP Apps client does with ext-apps' own `AppBridge` — a
 * real MCP client (same origin as the demo) lists the tools, reads the tool's
 * `ui://` resource, calls the tool, and renders the view in a sandboxed iframe
 * (scripts only, a strict CSP: nothing may be fetched), handing it the tool's
 * arguments and real result. The view's own calls (`callServerTool`) go
 * through the bridge to the same client.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppBridge, getToolUiResourceUri, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';

/** What a sandboxed view may do: run its inline script and style, show inline images; nothing else. */
const VIEW_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'";

/** What the test reads back from a shown view. */
export interface ShownView {
  uri: string;
  mimeType: string | undefined;
  bytes: number;
  toolMeta: unknown;
  resultIsError: boolean;
}

let bridge: AppBridge | undefined;
let context: McpUiHostContext = {};

async function showView(query: string, tool: string, args: Record<string, unknown>, theme: 'light' | 'dark'): Promise<ShownView> {
  const client = new Client({ name: 'reactor-views-e2e-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`/mcp${query}`, location.origin)));
  const { tools } = await client.listTools();
  const listed = tools.find((t) => t.name === tool);
  if (!listed) throw new Error(`${tool} is not listed at /mcp${query}`);
  const uri = getToolUiResourceUri(listed);
  if (!uri) throw new Error(`${tool} declares no view (_meta.ui.resourceUri)`);
  const { contents } = await client.readResource({ uri });
  const content = contents[0] as { mimeType?: string; text?: string } | undefined;
  if (typeof content?.text !== 'string') throw new Error(`${uri} has no HTML text`);
  const result = await client.callTool({ name: tool, arguments: args }, { timeout: 120_000 });

  const iframe = document.createElement('iframe');
  iframe.id = 'view';
  iframe.title = `${tool} view`;
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = 'width: 760px; border: 0; display: block';
  document.getElementById('host')!.replaceChildren(iframe);
  context = { theme, displayMode: 'inline', availableDisplayModes: ['inline'], containerDimensions: { width: 760, maxHeight: 1400 }, platform: 'web', locale: 'en-US' };
  bridge = new AppBridge(client, { name: 'reactor-views-e2e-host', version: '1.0.0' }, { openLinks: {}, serverTools: {}, serverResources: {}, logging: {} }, { hostContext: context });
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  bridge.onopenlink = () => Promise.resolve({});
  const initialized = new Promise<void>((resolve) => (bridge!.oninitialized = () => resolve()));
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = content.text.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}">`);
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
  return { uri, mimeType: content.mimeType, bytes: new TextEncoder().encode(content.text).length, toolMeta: listed._meta, resultIsError: result.isError === true };
}

function setTheme(theme: 'light' | 'dark'): void {
  context = { ...context, theme };
  bridge!.setHostContext(context);
}

(window as unknown as { views: unknown }).views = { showView, setTheme };
