// #region snippet
import { MCPClient } from 'mcp-use';
import { LangChainAdapter } from 'mcp-use/adapters';

async function connectMcpUse(url: string, headers: Record<string, string>) {
  const client = MCPClient.fromDict({ mcpServers: { reactor: { url, headers } } });
  const session = await client.createSession('reactor');
  // What MCPAgent hands its model: the session's tools as LangChain tools.
  const tools = await new LangChainAdapter().createToolsFromConnectors([session.connector]);
  return { client, session, tools };
}
// #endregion snippet

import { textOf, type ClientUnderTest } from './types.js';

export const mcpUse: ClientUnderTest = {
  name: 'mcp-use',
  packageName: 'mcp-use',
  async connect({ url, headers }) {
    const { client, session, tools } = await connectMcpUse(url, headers);
    return {
      toolNames: tools.map((t) => t.name),
      callTool: async (name, args) => {
        const tool = tools.find((t) => t.name === name);
        if (!tool) throw new Error(`mcp-use offers no tool "${name}"`);
        const result: unknown = await tool.invoke(args);
        return typeof result === 'string' ? result : textOf(result);
      },
      readResource: async (uri) => textOf((await session.readResource(uri)).contents),
      getPrompt: async (name, args) => textOf((await session.getPrompt(name, args)).messages.map((m) => m.content)),
      close: () => client.closeAllSessions(),
    };
  },
};
