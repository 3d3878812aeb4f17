import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAnsweringClient } from '../test/answeringClient.js';
import { conformance } from './conformance.js';
import { LOG_MESSAGES, PROGRESS_STEPS } from './notifyingTools.js';
import { conformancePassthrough, createConformancePassthrough, passthroughOf } from './passthrough.js';
import { CONFORMANCE_TOOL_NAMES } from './tools.js';

const calls: string[] = [];
let wrapped: McpHost;
let plain: McpHost;
let wrappedConn: TestConnection;
let plainConn: TestConnection;

beforeAll(async () => {
  wrapped = await buildHost([conformance, createConformancePassthrough({ onCall: (tool) => calls.push(tool) })], { logger: silentLogger, strict: true });
  plain = await buildHost([conformance], { logger: silentLogger, strict: true });
  wrappedConn = await connect(wrapped);
  plainConn = await connect(plain);
});

afterAll(async () => {
  await wrappedConn.close();
  await plainConn.close();
  await wrapped.stop();
  await plain.stop();
});

describe('the conformance-passthrough extension', () => {
  it('extends every conformance tool, and describe() says so in each tool\'s provenance', async () => {
    const { provenance, unappliedExtensions } = await wrapped.describe();
    for (const name of CONFORMANCE_TOOL_NAMES) {
      expect(provenance[name], name).toEqual({ offeredBy: 'conformance', extendedBy: ['conformance-passthrough'] });
    }
    expect(unappliedExtensions).toEqual([]);
  });

  it('declares one tool extension per conformance tool, each only a wrapper', () => {
    const pairs = conformancePassthrough.toolExtensions?.() ?? [];
    expect(pairs.map(([name]) => name)).toEqual([...CONFORMANCE_TOOL_NAMES]);
    for (const [, extension] of pairs) expect(Object.keys(extension)).toEqual(['wrap']);
  });

  it('hands the original its args and context unchanged, and returns what the original returns', async () => {
    const seen: unknown[] = [];
    const original = (args: Record<string, unknown>, ctx: unknown) => {
      seen.push(args, ctx);
      return { answer: 42 };
    };
    const args = { a: 1 };
    const ctx = { marker: true };
    const handler = passthroughOf('t').wrap?.(original);
    expect(await handler?.(args, ctx as never)).toEqual({ answer: 42 });
    expect(seen[0]).toBe(args);
    expect(seen[1]).toBe(ctx);
  });

  it('leaves the tool list exactly as without it', async () => {
    expect(await wrappedConn.client.listTools()).toEqual(await plainConn.client.listTools());
  });

  it('answers the content tools and the failing tool exactly as without it, running the wrapper on each call', async () => {
    for (const name of ['test_simple_text', 'test_image_content', 'test_audio_content', 'test_embedded_resource', 'test_multiple_content_types', 'test_error_handling']) {
      calls.length = 0;
      expect(await wrappedConn.callTool(name), name).toEqual(await plainConn.callTool(name));
      expect(calls, name).toEqual([name]);
    }
  });

  it('lets log notifications through the wrapper', async () => {
    const levels: string[] = [];
    const data: unknown[] = [];
    wrappedConn.client.setNotificationHandler('notifications/message', (n) => {
      levels.push(n.params.level);
      data.push(n.params.data);
    });
    await wrappedConn.client.setLoggingLevel('info');
    calls.length = 0;
    await wrappedConn.callTool('test_tool_with_logging');
    expect(calls).toEqual(['test_tool_with_logging']);
    expect(data).toEqual([...LOG_MESSAGES]);
    expect(levels).toEqual(['info', 'info', 'info']);
  });

  it('lets progress notifications through the wrapper, with the request\'s progress token', async () => {
    const progress: number[] = [];
    calls.length = 0;
    await wrappedConn.client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
    expect(calls).toEqual(['test_tool_with_progress']);
    expect(progress).toEqual([...PROGRESS_STEPS]);
  });

  it('lets sampling and elicitation requests through the wrapper to the client and their answers back', async () => {
    const client = await connectAnsweringClient(wrapped, { samplingText: 'sampled', elicitContent: { username: 'u', email: 'e@example.com' } });
    try {
      calls.length = 0;
      const sampled = await client.client.callTool({ name: 'test_sampling', arguments: { prompt: 'p' } });
      const elicited = await client.client.callTool({ name: 'test_elicitation', arguments: { message: 'm' } });
      expect(calls).toEqual(['test_sampling', 'test_elicitation']);
      expect(sampled.content).toEqual([{ type: 'text', text: 'LLM response: sampled' }]);
      expect(elicited.content).toEqual([{ type: 'text', text: 'User response: action=accept, content={"username":"u","email":"e@example.com"}' }]);
      expect(client.samplingRequests).toHaveLength(1);
      expect(client.elicitationRequests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('depends on the conformance extension, so it is ordered after it and stands down without it', async () => {
    expect(conformancePassthrough.manifest.dependencies).toEqual(['conformance']);
    await expect(buildHost([conformancePassthrough], { logger: silentLogger, strict: true })).rejects.toThrow(/conformance/);
  });
});
