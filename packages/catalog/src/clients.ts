/**
 * Copyable configuration for each MCP client, for one URL. One function, with
 * every helper inside it and no imports: the page's script embeds its source
 * text (`clientSnippets.toString()`), so the server-rendered page and the
 * live URL builder produce exactly the same snippets, and the tests below
 * check the one implementation both use.
 *
 * Shapes follow each client's documentation (checked December 2026):
 * - Claude Code: `claude mcp add --transport http NAME URL [--header "…"]`
 * - Claude Desktop: `claude_desktop_config.json` `mcpServers`, stdio through
 *   `npx -y mcp-remote URL` (`--header Authorization:${AUTH_HEADER}` with the
 *   value in `env`, as mcp-remote advises; `--allow-http` for plain HTTP off localhost)
 * - VS Code: `.vscode/mcp.json` `servers.NAME = { type: "http", url, headers }`
 *   with a `promptString` input for the token; the `vscode:mcp/install?<JSON>` link
 * - Cursor: `mcp.json` `mcpServers.NAME = { url, headers }` (`${env:…}` interpolation);
 *   `cursor://anysphere.cursor-deeplink/mcp/install?name=…&config=<base64 JSON of the entry>`
 * - Windsurf: `mcp_config.json` `mcpServers.NAME = { serverUrl, headers }`
 * - Zed: settings `context_servers.NAME = { url, headers }`
 * - Goose: `config.yaml` `extensions.NAME = { type: streamable_http, uri, headers, … }`
 *   and its `goose://extension?…` link
 * - Continue: `.continue/mcpServers/NAME.yaml` block, `type: streamable-http`,
 *   headers under `requestOptions`, the token from `${{ secrets.… }}`
 */

/** What the snippets are made for. */
export interface SnippetInput {
  /** The key clients list the server under (kebab-case). */
  readonly name: string;
  /** The MCP URL, selection included. */
  readonly url: string;
  /** True when the server wants `Authorization: Bearer …`. */
  readonly auth: boolean;
  /** The environment variable (or secret) name the token is read from. */
  readonly tokenVariable: string;
}

/** One client's configuration. */
export interface ClientSnippet {
  readonly id: 'claude-code' | 'claude-desktop' | 'vscode' | 'cursor' | 'windsurf' | 'zed' | 'goose' | 'continue';
  readonly client: string;
  /** Where it goes. */
  readonly where: string;
  readonly language: 'shell' | 'json' | 'yaml';
  readonly text: string;
  /** A one-click install link, when the client has one. */
  readonly link?: { readonly href: string; readonly label: string };
  /** With auth on: where the token goes for this client. */
  readonly token?: string;
}

/** Every client's snippet for `input`, in a fixed order. */
export function clientSnippets(input: SnippetInput): ClientSnippet[] {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  const base64 = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  };
  const yamlString = (value: string) => JSON.stringify(value);
  const { name, url, auth, tokenVariable } = input;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const placeholder = '<your token>';
  const host = (() => {
    try {
      return new URL(url).hostname;
    } catch {
      return '';
    }
  })();
  const plainHttpOffLocalhost = url.startsWith('http:') && !['localhost', '127.0.0.1', '[::1]'].includes(host);
  const inputId = `${name}-token`;

  const snippets: ClientSnippet[] = [];

  const claudeCode = ['claude', 'mcp', 'add', '--transport', 'http', name, shellQuote(url)];
  if (auth) claudeCode.push('--header', `"Authorization: Bearer $${tokenVariable}"`);
  snippets.push({
    id: 'claude-code',
    client: 'Claude Code',
    where: 'a terminal',
    language: 'shell',
    text: claudeCode.join(' '),
    ...(auth ? { token: `export ${tokenVariable}=… first; the shell puts it in the Authorization header.` } : {}),
  });

  const remoteArgs = ['-y', 'mcp-remote', url];
  if (plainHttpOffLocalhost) remoteArgs.push('--allow-http');
  if (auth) remoteArgs.push('--header', 'Authorization:${AUTH_HEADER}');
  snippets.push({
    id: 'claude-desktop',
    client: 'Claude Desktop',
    where: 'claude_desktop_config.json (Settings → Developer → Edit Config), through mcp-remote',
    language: 'json',
    text: json({ mcpServers: { [name]: { command: 'npx', args: remoteArgs, ...(auth ? { env: { AUTH_HEADER: `Bearer ${placeholder}` } } : {}) } } }),
    ...(auth ? { token: 'in env.AUTH_HEADER, after "Bearer ".' } : {}),
  });

  const vscodeServer = { type: 'http', url, ...(auth ? { headers: bearer(`\${input:${inputId}}`) } : {}) };
  snippets.push({
    id: 'vscode',
    client: 'VS Code',
    where: '.vscode/mcp.json',
    language: 'json',
    text: json({
      servers: { [name]: vscodeServer },
      ...(auth ? { inputs: [{ type: 'promptString', id: inputId, description: `Token for ${name}`, password: true }] } : {}),
    }),
    link: { href: `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name, type: 'http', url }))}`, label: 'Install in VS Code' },
    ...(auth ? { token: 'VS Code asks for it once (the promptString input) and keeps it secret; the install link adds the server without it.' } : {}),
  });

  const cursorServer = { url, ...(auth ? { headers: bearer(`\${env:${tokenVariable}}`) } : {}) };
  snippets.push({
    id: 'cursor',
    client: 'Cursor',
    where: '.cursor/mcp.json (or ~/.cursor/mcp.json)',
    language: 'json',
    text: json({ mcpServers: { [name]: cursorServer } }),
    link: { href: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(base64(JSON.stringify(cursorServer)))}`, label: 'Add to Cursor' },
    ...(auth ? { token: `from the environment variable ${tokenVariable} Cursor was started with.` } : {}),
  });

  snippets.push({
    id: 'windsurf',
    client: 'Windsurf',
    where: '~/.codeium/windsurf/mcp_config.json',
    language: 'json',
    text: json({ mcpServers: { [name]: { serverUrl: url, ...(auth ? { headers: bearer(`\${env:${tokenVariable}}`) } : {}) } } }),
    ...(auth ? { token: `from the environment variable ${tokenVariable}.` } : {}),
  });

  snippets.push({
    id: 'zed',
    client: 'Zed',
    where: 'settings.json (zed: open settings)',
    language: 'json',
    text: json({ context_servers: { [name]: { url, ...(auth ? { headers: bearer(placeholder) } : {}) } } }),
    ...(auth ? { token: 'in headers.Authorization, after "Bearer ".' } : {}),
  });

  const gooseLines = [
    'extensions:',
    `  ${name}:`,
    '    enabled: true',
    '    type: streamable_http',
    `    name: ${yamlString(name)}`,
    `    uri: ${yamlString(url)}`,
    '    timeout: 300',
  ];
  if (auth) gooseLines.push('    headers:', `      Authorization: ${yamlString(`Bearer ${placeholder}`)}`);
  const gooseLink = new URLSearchParams({ url, type: 'streamable_http', id: name, name, description: `MCP server ${name}` });
  snippets.push({
    id: 'goose',
    client: 'Goose',
    where: '~/.config/goose/config.yaml',
    language: 'yaml',
    text: `${gooseLines.join('\n')}\n`,
    link: { href: `goose://extension?${gooseLink.toString()}`, label: 'Add to Goose' },
    ...(auth ? { token: 'in headers.Authorization, after "Bearer ".' } : {}),
  });

  const continueLines = [
    `name: ${yamlString(name)}`,
    'version: 0.0.1',
    'schema: v1',
    'mcpServers:',
    `  - name: ${yamlString(name)}`,
    '    type: streamable-http',
    `    url: ${yamlString(url)}`,
  ];
  if (auth) continueLines.push('    requestOptions:', '      headers:', `        Authorization: ${yamlString(`Bearer \${{ secrets.${tokenVariable} }}`)}`);
  snippets.push({
    id: 'continue',
    client: 'Continue',
    where: `.continue/mcpServers/${name}.yaml`,
    language: 'yaml',
    text: `${continueLines.join('\n')}\n`,
    ...(auth ? { token: `a Continue secret named ${tokenVariable}.` } : {}),
  });

  return snippets;
}
