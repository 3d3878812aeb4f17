/**
 * The input-required fixtures, through a 2025 session: the SDK fulfils their
 * input requests itself (it asks the client, then calls the handler again),
 * so these show the handlers complete on the retry. The 2026-07-28 wire
 * (the client doing the rounds, the signed state) is `pnpm conformance`'s
 * and @reactor/host's protocol-2026 test's.
 */
import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect } from '@reactor/host/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAnsweringClient } from '../test/answeringClient.js';
import { createConformance } from './conformance.js';
import { CONFORMANCE_DYNAMIC, conformanceDynamic } from './dynamic.js';

let host: McpHost;
beforeAll(async () => {
  const toggle = async () => {
    const enabled = host.report().extensions.find((e) => e.name === CONFORMANCE_DYNAMIC)?.state !== 'disabled';
    await (enabled ? host.disable(CONFORMANCE_DYNAMIC) : host.enable(CONFORMANCE_DYNAMIC));
  };
  host = await buildHost([createConformance({ triggers: { toolsChanged: toggle, promptsChanged: toggle } }), conformanceDynamic], {
    logger: silentLogger,
    strict: true,
    requestStateKey: 'conformance-test-key-of-at-least-32-bytes',
  });
});
afterAll(async () => {
  await host.stop();
});

describe('input-required fixtures', () => {
  it.each([
    ['test_input_required_result_elicitation', 'Hello, ada!'],
    ['test_input_required_result_request_state', 'state-ok: confirmed=true'],
    ['test_input_required_result_multi_round', 'ada likes teal'],
    ['test_input_required_result_tampered_state', 'Hello, ada! (state verified)'],
    ['test_input_required_result_sampling', 'LLM response: Paris'],
  ])('%s completes once its input arrives', async (tool, expected) => {
    const client = await connectAnsweringClient(host, { samplingText: 'Paris', elicitContent: { name: 'ada', ok: true, color: 'teal' } });
    try {
      const result = await client.client.callTool({ name: tool, arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: expected }]);
    } finally {
      await client.close();
    }
  });

  it('test_input_required_result_prompt answers the prompt once the user gave the context', async () => {
    const client = await connectAnsweringClient(host, { samplingText: '', elicitContent: { context: 'release notes' } });
    try {
      const result = await client.client.getPrompt({ name: 'test_input_required_result_prompt' });
      expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Answer with this context in mind: release notes' } }]);
    } finally {
      await client.close();
    }
  });
});

describe('diagnostic tools', () => {
  it('the trigger tools remove and restore conformance-dynamic, and tell the host', async () => {
    const conn = await connect(host);
    const changes: string[] = [];
    const stop = host.onChange((change) => changes.push(change.kind));
    try {
      expect(await conn.toolNames()).toContain('test_dynamic_tool');
      await conn.callTool('test_trigger_tool_change');
      const after = await connect(host);
      expect(await after.toolNames()).not.toContain('test_dynamic_tool');
      await after.callTool('test_trigger_prompt_change');
      expect(changes).toEqual(['toggled', 'surface', 'toggled', 'surface']); // each enable/disable names itself, then the surface changes
      await after.close();
      const restored = await connect(host);
      expect(await restored.toolNames()).toContain('test_dynamic_tool');
      await restored.close();
    } finally {
      stop();
      await conn.close();
    }
  });

  it('test_missing_capability fails for a 2025 client that cannot sample', async () => {
    const conn = await connect(host);
    try {
      const result = await conn.callTool('test_missing_capability');
      expect(result.isError).toBe(true);
    } finally {
      await conn.close();
    }
  });
});
