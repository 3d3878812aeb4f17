// #region snippet
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

async function connectSdkV2(url: string, headers: Record<string, string>) {
  const client = new Client({ name: 'my-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  const { tools } = await client.listTools();
  return { client, tools };
}
// #endregion snippet

import { textOf, type ClientUnderTest } from './types.js';

export const sdkV2: ClientUnderTest = {
  name: 'official SDK v2',
  packageName: '@modelcontextprotocol/client',
  async connect({ url, headers }) {
    const { client, tools } = await connectSdkV2(url, headers);
    return {
      toolNames: tools.map((t) => t.name),
      callTool: async (name, args) => textOf((await client.callTool({ name, arguments: args })).content),
      readResource: async (uri) => textOf((await client.readResource({ uri })).contents),
      getPrompt: async (name, args) => textOf((await client.getPrompt({ name, arguments: args })).messages.map((m) => m.content)),
      close: () => client.close(),
    };
  },
};
