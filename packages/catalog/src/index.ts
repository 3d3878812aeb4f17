/**
 * `@reactor/catalog`: the catalog page of a Reactor MCP server (`GET /`) and
 * the tokenizer that says what each toolset costs. Kept out of `@reactor/host`
 * so the core installs small; `reactor-mcp-server` turns it on when this
 * package is installed.
 */
export { createCatalog, catalogOptions, CONTENT_SECURITY_POLICY } from './catalog.js';
export { createTokenCounter, TOKENIZER_NAME } from './tokenizer.js';
export { clientSnippets } from './clients.js';
export type { ClientSnippet, SnippetInput } from './clients.js';
export { selectionQuery } from './query.js';
export type { QueryToolset } from './query.js';
