// #region snippet
import { MultiServerMCPClient } from '@langchain/mcp-adapters';

async function connectLangChain(url: string, headers: Record<string, string>) {
  const client = new MultiServerMCPClient({ mcpServers: { reactor: { transport: 'http', url, headers } } });
  const tools = await client.getTools(); // for createAgent({ model, tools })
  return { client, tools };
}
// #endregion snippet

import { textOf, type ClientUnderTest } from './types.js';

export const langchain: ClientUnderTest = {
  name: 'LangChain MCP adapters',
  packageName: '@langchain/mcp-adapters',
  async connect({ url, headers }) {
    const { client, tools } = await connectLangChain(url, headers);
    return {
      toolNames: tools.map((t) => t.name),
      callTool: async (name, args) => {
        const tool = tools.find((t) => t.name === name);
        if (!tool) throw new Error(`LangChain offers no tool "${name}"`);
        const result: unknown = await tool.invoke(args);
        return typeof result === 'string' ? result : textOf(result);
      },
      readResource: async (uri) => textOf(await client.readResource('reactor', uri)),
      getPrompt: async (name, args) => {
        const session = await client.getClient('reactor');
        if (!session) throw new Error('LangChain has no client for "reactor"');
        return textOf((await session.getPrompt({ name, arguments: args })).messages.map((m) => m.content));
      },
      close: () => client.close(),
    };
  },
};
