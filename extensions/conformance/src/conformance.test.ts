import { buildHost, silentLogger, type McpHost } from '@reactor/host';
import { connect, type TestConnection } from '@reactor/host/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAnsweringClient } from '../test/answeringClient.js';
import { conformance, CONFORMANCE_TOOLSET } from './conformance.js';
import { INTENTIONAL_ERROR_MESSAGE, JSON_SCHEMA_2020_12_TOOL } from './contentTools.js';
import { PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64, SILENT_WAV_BASE64, WAV_MIME_TYPE } from './media.js';
import { LOG_MESSAGES, PROGRESS_STEPS, PROGRESS_TOTAL } from './notifyingTools.js';
import { STATIC_TEXT, WATCHED_RESOURCE_URI } from './resources.js';
import { CONFORMANCE_TOOL_NAMES } from './tools.js';

let host: McpHost;
let conn: TestConnection;

beforeAll(async () => {
  host = await buildHost([conformance], { logger: silentLogger, strict: true });
  conn = await connect(host);
});

afterAll(async () => {
  await conn.close();
  await host.stop();
});

describe('the conformance extension: tools', () => {
  it('lists every conformance tool, each with a description and an input schema', async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...CONFORMANCE_TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe('object');
    }
  });

  it('puts its tools in the "conformance" toolset, on by default', async () => {
    const description = await host.describe();
    expect(description.active).toContain(CONFORMANCE_TOOLSET);
    expect(description.toolsets.find((t) => t.name === CONFORMANCE_TOOLSET)).toMatchObject({ default: true, active: true });
  });

  it('test_simple_text answers one text item', async () => {
    expect(await conn.callTool('test_simple_text')).toEqual({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] });
  });

  it('test_image_content answers a base64 PNG image item', async () => {
    const result = await conn.callTool('test_image_content');
    expect(result.content).toEqual([{ type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: PNG_MIME_TYPE }]);
  });

  it('test_audio_content answers a base64 WAV audio item of type audio/wav', async () => {
    const result = await conn.callTool('test_audio_content');
    expect(result.content).toEqual([{ type: 'audio', data: SILENT_WAV_BASE64, mimeType: WAV_MIME_TYPE }]);
  });

  it('test_embedded_resource answers an embedded text resource with uri and mimeType', async () => {
    const result = await conn.callTool('test_embedded_resource');
    expect(result.content).toEqual([
      { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } },
    ]);
  });

  it('test_multiple_content_types answers text, image and resource items in one result', async () => {
    const result = await conn.callTool('test_multiple_content_types');
    expect(result.content.map((item) => item.type)).toEqual(['text', 'image', 'resource']);
    expect(result.content[2]).toMatchObject({ resource: { uri: 'test://mixed-content-resource', text: '{"test":"data","value":123}' } });
  });

  it('test_error_handling answers isError: true with its message, not a protocol error', async () => {
    const result = await conn.callTool('test_error_handling');
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: INTENTIONAL_ERROR_MESSAGE }] });
  });

  it('json_schema_2020_12_tool lists its input schema with $schema, $defs and additionalProperties preserved', async () => {
    const { tools } = await conn.client.listTools();
    const schema = tools.find((t) => t.name === JSON_SCHEMA_2020_12_TOOL)?.inputSchema as Record<string, unknown>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$defs).toHaveProperty('address');
    expect(schema.additionalProperties).toBe(false);
    // SEP-2106's broader vocabulary, kept as written.
    expect((schema.$defs as { address: Record<string, unknown> }).address.$anchor).toBe('addressDef');
    expect(schema.allOf).toEqual([{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }]);
    expect(schema).toMatchObject({ then: { required: ['phone'] }, else: { required: ['email'] } });
    expect(schema.if).toBeDefined();
  });

  it('json_schema_2020_12_tool validates calls against that schema, $ref included', async () => {
    const ok = await conn.callTool(JSON_SCHEMA_2020_12_TOOL, { name: 'Ada', address: { city: 'London' }, email: 'ada@example.com' });
    expect(ok.isError).toBeFalsy();
    const bad = await conn.callTool(JSON_SCHEMA_2020_12_TOOL, { name: 'Ada', email: 'ada@example.com', extra: true });
    expect(bad.isError).toBe(true);
    // if contactMethod is phone, then phone is required
    const conditional = await conn.callTool(JSON_SCHEMA_2020_12_TOOL, { contactMethod: 'phone', email: 'ada@example.com' });
    expect(conditional.isError).toBe(true);
  });

  it('test_tool_with_logging sends its three info messages to a client that set the level', async () => {
    const received: Array<{ level: string; data: unknown }> = [];
    conn.client.setNotificationHandler('notifications/message', (notification) => {
      received.push({ level: notification.params.level, data: notification.params.data });
    });
    await conn.client.setLoggingLevel('debug');
    await conn.callTool('test_tool_with_logging');
    // Notifications of a call are sent before its result, in order, over one transport.
    expect(received).toEqual(LOG_MESSAGES.map((data) => ({ level: 'info', data })));
  });

  it('test_tool_with_progress reports 0, 50 and 100 of 100 when the request carries a progress token', async () => {
    const progress: Array<{ progress: number; total?: number }> = [];
    const result = await conn.client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      { onprogress: (p) => progress.push({ progress: p.progress, total: p.total }) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress).toEqual(PROGRESS_STEPS.map((p) => ({ progress: p, total: PROGRESS_TOTAL })));
  });

  it('test_tool_with_progress still completes without a progress token, sending nothing', async () => {
    const result = await conn.callTool('test_tool_with_progress');
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('without progress') });
  });

  it('test_reconnection answers on the open stream when the transport cannot close it (no event store)', async () => {
    const result = await conn.callTool('test_reconnection');
    expect(result.isError).toBeFalsy();
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('without closing') });
  });

  it('test_sampling fails with isError when the client does not support sampling', async () => {
    const result = await conn.callTool('test_sampling', { prompt: 'hi' });
    expect(result.isError).toBe(true);
  });

  it('test_sampling rejects a call without its prompt before the handler runs', async () => {
    const result = await conn.callTool('test_sampling', {});
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('prompt') });
  });
});

describe('the conformance extension: sampling and elicitation with a capable client', () => {
  it('test_sampling asks the client for a message and answers with its text', async () => {
    const client = await connectAnsweringClient(host, { samplingText: 'forty-two', elicitContent: {} });
    try {
      const result = await client.client.callTool({ name: 'test_sampling', arguments: { prompt: 'The question' } });
      expect(result.content).toEqual([{ type: 'text', text: 'LLM response: forty-two' }]);
      expect(client.samplingRequests).toEqual([{ messages: [{ role: 'user', content: { type: 'text', text: 'The question' } }], maxTokens: 100 }]);
    } finally {
      await client.close();
    }
  });

  it('test_elicitation asks for username and email, both required, and reports the answer', async () => {
    const client = await connectAnsweringClient(host, { samplingText: '', elicitContent: { username: 'ada', email: 'ada@example.com' } });
    try {
      const result = await client.client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
      expect(result.content).toEqual([{ type: 'text', text: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}' }]);
      expect(client.elicitationRequests[0]).toMatchObject({ message: 'Who are you?', requestedSchema: { required: ['username', 'email'] } });
    } finally {
      await client.close();
    }
  });

  it('test_elicitation_sep1034_defaults sends a default for every primitive type (SEP-1034)', async () => {
    const client = await connectAnsweringClient(host, { samplingText: '', elicitContent: { name: 'Jane', age: 25, score: 88, status: 'inactive', verified: false } });
    try {
      const result = await client.client.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(client.elicitationRequests[0]?.requestedSchema?.properties).toMatchObject({
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', default: true },
      });
    } finally {
      await client.close();
    }
  });

  it('test_elicitation_sep1330_enums sends the five enum shapes of SEP-1330', async () => {
    const client = await connectAnsweringClient(host, {
      samplingText: '',
      elicitContent: { untitledSingle: 'option1', titledSingle: 'value1', legacyEnum: 'opt1', untitledMulti: ['option1'], titledMulti: ['value2'] },
    });
    try {
      const result = await client.client.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} });
      expect(result.isError).toBeFalsy();
      const properties = client.elicitationRequests[0]?.requestedSchema?.properties ?? {};
      expect(properties.untitledSingle).toMatchObject({ type: 'string', enum: ['option1', 'option2', 'option3'] });
      expect(properties.titledSingle).toMatchObject({ type: 'string', oneOf: expect.arrayContaining([{ const: 'value1', title: 'First Option' }]) });
      expect(properties.legacyEnum).toMatchObject({ enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] });
      expect(properties.untitledMulti).toMatchObject({ type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } });
      expect(properties.titledMulti).toMatchObject({ type: 'array', items: { anyOf: expect.arrayContaining([{ const: 'value1', title: 'First Choice' }]) } });
    } finally {
      await client.close();
    }
  });
});

describe('the conformance extension: resources', () => {
  it('lists the fixed resources and the template instances, each with uri and name', async () => {
    const { resources } = await conn.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['test://static-text', 'test://static-binary', WATCHED_RESOURCE_URI, 'test://template/123/data']));
    for (const resource of resources) expect(resource.name, resource.uri).toBeTruthy();
  });

  it('lists the data template', async () => {
    const { resourceTemplates } = await conn.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ name: 'template-data', uriTemplate: 'test://template/{id}/data', mimeType: 'application/json' })]);
  });

  it('reads test://static-text as text/plain', async () => {
    expect(await conn.client.readResource({ uri: 'test://static-text' })).toEqual({
      contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: STATIC_TEXT }],
    });
  });

  it('reads test://static-binary as a base64 PNG blob', async () => {
    expect(await conn.client.readResource({ uri: 'test://static-binary' })).toEqual({
      contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: RED_PIXEL_PNG_BASE64 }],
    });
  });

  it('reads a template instance with its id substituted', async () => {
    const { contents } = await conn.client.readResource({ uri: 'test://template/123/data' });
    expect(contents).toEqual([{ uri: 'test://template/123/data', mimeType: 'application/json', text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}' }]);
  });

  it('lets a client subscribe to and unsubscribe from the watched resource, and be told of updates in between', async () => {
    const updates: string[] = [];
    conn.client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    await conn.client.subscribeResource({ uri: WATCHED_RESOURCE_URI });
    expect(await host.notifyResourceUpdated(WATCHED_RESOURCE_URI)).toBe(1);
    await conn.client.unsubscribeResource({ uri: WATCHED_RESOURCE_URI });
    expect(await host.notifyResourceUpdated(WATCHED_RESOURCE_URI)).toBe(0);
    // The one notification was sent before the unsubscribe request was answered.
    expect(updates).toEqual([WATCHED_RESOURCE_URI]);
  });

  it('refuses a subscription to a resource that does not offer one', async () => {
    await expect(conn.client.subscribeResource({ uri: 'test://static-text' })).rejects.toThrow(/does not support subscriptions/);
  });

  it('completes the template id by prefix', async () => {
    const { completion } = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '12' } });
    expect(completion.values).toEqual(['123']);
  });
});

describe('the conformance extension: prompts', () => {
  it('lists the five prompts with descriptions, and the arguments of those that take some', async () => {
    const { prompts } = await conn.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['test_simple_prompt', 'test_prompt_with_arguments', 'test_prompt_with_embedded_resource', 'test_prompt_with_image', 'test_input_required_result_prompt']);
    for (const prompt of prompts) expect(prompt.description, prompt.name).toBeTruthy();
    expect(prompts[1]?.arguments).toEqual([
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ]);
  });

  it('gets test_simple_prompt', async () => {
    const { messages } = await conn.client.getPrompt({ name: 'test_simple_prompt' });
    expect(messages).toEqual([{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }]);
  });

  it('substitutes both arguments of test_prompt_with_arguments', async () => {
    const { messages } = await conn.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } });
    expect(messages).toEqual([{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } }]);
  });

  it('refuses test_prompt_with_arguments without its required arguments', async () => {
    await expect(conn.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello' } })).rejects.toThrow(/arg2/);
  });

  it('embeds the resource named by resourceUri', async () => {
    const { messages } = await conn.client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://example-resource' } });
    expect(messages[0]?.content).toEqual({ type: 'resource', resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' } });
    expect(messages[1]?.content).toEqual({ type: 'text', text: 'Please process the embedded resource above.' });
  });

  it('carries an image in test_prompt_with_image', async () => {
    const { messages } = await conn.client.getPrompt({ name: 'test_prompt_with_image' });
    expect(messages[0]?.content).toEqual({ type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'image/png' });
  });

  it('completes arg1 of test_prompt_with_arguments by prefix, and answers an empty list for no match', async () => {
    const hit = await conn.client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } });
    expect(hit.completion.values).toEqual(['test', 'testValue1', 'testValue2']);
    const miss = await conn.client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'zzz' } });
    expect(miss.completion).toMatchObject({ values: [], hasMore: false });
  });
});
