// #region snippet
import { createMCPClient } from '@ai-sdk/mcp';

async function connectAiSdk(url: string, headers: Record<string, string>) {
  const client = await createMCPClient({ transport: { type: 'http', url, headers } });
  const tools = await client.tools(); // for generateText({ model, tools, prompt })
  return { client, tools };
}
// #endregion snippet

import { textOf, type ClientUnderTest } from './types.js';

export const aiSdk: ClientUnderTest = {
  name: 'Vercel AI SDK',
  packageName: '@ai-sdk/mcp',
  async connect({ url, headers }) {
    const { client, tools } = await connectAiSdk(url, headers);
    return {
      toolNames: Object.keys(tools),
      callTool: async (name, args) => {
        const tool = tools[name];
        if (!tool) throw new Error(`the AI SDK offers no tool "${name}"`);
        const result = (await tool.execute(args, { toolCallId: 'interop', messages: [] })) as { content?: unknown };
        return textOf(result.content);
      },
      readResource: async (uri) => textOf((await client.readResource({ uri })).contents),
      getPrompt: async (name, args) => textOf((await client.experimental_getPrompt({ name, arguments: args })).messages.map((m) => m.content)),
      close: () => client.close(),
    };
  },
};
