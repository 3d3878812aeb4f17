// #region snippet
import { getAllMcpTools, MCPServerStreamableHttp } from '@openai/agents';

async function connectOpenAiAgents(url: string, headers: Record<string, string>) {
  const server = new MCPServerStreamableHttp({ name: 'reactor', url, requestInit: { headers } });
  await server.connect();
  // What new Agent({ mcpServers: [server] }) hands the model: the tools, converted to strict schemas.
  const tools = await getAllMcpTools({ mcpServers: [server], convertSchemasToStrict: true });
  return { server, tools };
}
// #endregion snippet

import { RunContext } from '@openai/agents';
import { textOf, type ClientUnderTest } from './types.js';

export const openaiAgents: ClientUnderTest = {
  name: 'OpenAI Agents SDK',
  packageName: '@openai/agents',
  // Its conversion renames a tool whose name has a hyphen (get-sum becomes get_sum); the call still reaches get-sum.
  toolName: (served) => served.replace(/-/g, '_'),
  async connect({ url, headers }) {
    const { server, tools } = await connectOpenAiAgents(url, headers);
    const loose = tools.filter((t) => t.type === 'function' && !t.strict).map((t) => t.name);
    return {
      toolNames: tools.map((t) => t.name),
      notes: loose.length > 0 ? [`not strict (schema kept as is): ${loose.toSorted().join(' ')}`] : [],
      callTool: async (name, args) => {
        const tool = tools.find((t) => t.name === name);
        if (!tool || tool.type !== 'function') throw new Error(`the Agents SDK offers no function tool "${name}"`);
        // The model's arguments arrive as a JSON string, as in a run.
        const result: unknown = await tool.invoke(new RunContext(), JSON.stringify(args));
        return typeof result === 'string' ? result : textOf(result);
      },
      readResource: async (uri) => textOf((await server.readResource(uri)).contents),
      close: () => server.close(),
    };
  },
};
