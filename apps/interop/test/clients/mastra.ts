// #region snippet
import { MCPClient } from '@mastra/mcp';

async function connectMastra(url: string, headers: Record<string, string>) {
  const mcp = new MCPClient({ id: 'my-agent', servers: { reactor: { url: new URL(url), requestInit: { headers } } } });
  const tools = await mcp.listTools(); // { reactor_list_spaces, … }, for new Agent({ tools })
  return { mcp, tools };
}
// #endregion snippet

import { textOf, type ClientUnderTest } from './types.js';

/** A tool as Mastra hands it to an agent: 1.x calls `execute(input, context)`, 0.x `execute({ context: input })`. */
interface MastraTool {
  execute?: (input: unknown, context?: unknown) => Promise<unknown>;
}

declare module '@mastra/mcp' {
  // Mastra 1.0 renamed getTools() listTools(); the Node 20 line (0.14, which the suite typechecks against) has getTools() only.
  interface MCPClient {
    listTools(): Promise<Record<string, MastraTool>>;
  }
}

/** Mastra's tool names are `<server>_<tool>`; the agent sees them so. */
const PREFIX = 'reactor_';

export const mastra: ClientUnderTest = {
  name: 'Mastra',
  packageName: '@mastra/mcp',
  async connect({ url, headers }) {
    const legacy = typeof (MCPClient.prototype as { listTools?: unknown }).listTools !== 'function';
    const { mcp, tools } = legacy ? await connectMastraLegacy(url, headers) : await connectMastra(url, headers);
    const names = Object.keys(tools);
    if (!names.every((n) => n.startsWith(PREFIX))) throw new Error(`Mastra named tools without the server prefix: ${names.join(', ')}`);
    return {
      toolNames: names.map((n) => n.slice(PREFIX.length)),
      callTool: async (name, args) => {
        const tool = tools[`${PREFIX}${name}`];
        if (!tool?.execute) throw new Error(`Mastra offers no tool "${PREFIX}${name}"`);
        const result = (legacy ? await tool.execute({ context: args }) : await tool.execute(args, {})) as { content?: unknown } | string;
        // A tool with an output schema answers its structured content, as the agent gets it.
        return typeof result === 'string' ? result : result.content !== undefined ? textOf(result.content) : JSON.stringify(result);
      },
      readResource: async (uri) => textOf((await mcp.resources.read('reactor', uri)).contents),
      getPrompt: async (name, args) => textOf((await mcp.prompts.get({ serverName: 'reactor', name, args })).messages.map((m) => m.content)),
      close: () => mcp.disconnect(),
    };
  },
};

/** Mastra 0.x, the last line that runs on Node 20: the same, with getTools(). */
async function connectMastraLegacy(url: string, headers: Record<string, string>) {
  const mcp = new MCPClient({ id: 'my-agent', servers: { reactor: { url: new URL(url), requestInit: { headers } } } });
  const tools = (await mcp.getTools()) as Record<string, MastraTool>;
  return { mcp, tools };
}
