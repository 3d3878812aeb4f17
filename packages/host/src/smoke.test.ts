import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildHost, defineExtension, defineTool, parseSelection, silentLogger } from './index.js';
import { connect } from './testing/index.js';

describe('smoke', () => {
  it('serves a tool through a real client', async () => {
    const ext = defineExtension({
      manifest: { name: 'spaces', version: '1.0.0' },
      toolsets: () => [{ name: 'spaces', instructions: 'Use spaces.' }],
      tools: () => [
        defineTool({
          name: 'echo',
          description: 'Echo',
          inputSchema: z.object({ text: z.string(), n: z.number().default(1) }),
          handler: (args) => args.text.repeat(args.n),
        }),
      ],
    });
    const host = await buildHost([ext], { logger: silentLogger, toolsetsTool: true });
    const conn = await connect(host, { selection: 'nosuch' });
    expect(await conn.toolNames()).toEqual(['echo', 'list_server_toolsets']);
    const result = await conn.callTool('echo', { text: 'ab', n: 2 });
    expect(result.content).toEqual([{ type: 'text', text: 'abab' }]);
    const bad = await conn.callTool('echo', { text: 3 });
    expect(bad.isError).toBe(true);
    const list = await conn.callTool('list_server_toolsets', {});
    expect((list.structuredContent as { unknown: string[] }).unknown).toEqual(['nosuch']);
    expect(conn.client.getInstructions()).toContain('Use spaces.');
    await expect(conn.callTool('nope', {})).rejects.toThrow(/not found/);
    await conn.close();
    void parseSelection;
  });
});
