// @modelcontextprotocol/server-everything ships JavaScript without declarations; these are the parts the tests import.
declare module '@modelcontextprotocol/server-everything/dist/tools/index.js' {
  export function registerTools(server: unknown): void;
  export function registerConditionalTools(server: unknown): void;
}
declare module '@modelcontextprotocol/server-everything/dist/resources/index.js' {
  export function registerResources(server: unknown): void;
}
declare module '@modelcontextprotocol/server-everything/dist/prompts/index.js' {
  export function registerPrompts(server: unknown): void;
}
declare module '@modelcontextprotocol/server-everything/dist/server/index.js' {
  export function createServer(): { server: object; cleanup(sessionId?: string): void };
}
