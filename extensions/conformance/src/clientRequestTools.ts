/**
 * Tools that ask the client something mid-call: LLM sampling and user input
 * (elicitation), including the richer elicitation schemas of SEP-1034
 * (defaults) and SEP-1330 (titled and multi-select enums). A client without
 * the capability makes the SDK reject the request; the tool then fails with
 * `isError: true` and the SDK's message.
 */
import { defineTool } from '@reactor/host';
import { z } from 'zod';

/** `tools-call-sampling`: asks the client's LLM to answer `prompt`. */
export const testSampling = defineTool({
  name: 'test_sampling',
  title: 'Sampling',
  description: "Asks the client's LLM to answer a prompt through sampling/createMessage (conformance scenario tools-call-sampling).",
  inputSchema: { prompt: z.string().describe('The prompt to send to the LLM') },
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: async ({ prompt }, ctx) => {
    const result = await ctx.mcpReq.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
      maxTokens: 100,
    });
    const blocks = Array.isArray(result.content) ? result.content : [result.content];
    const text = blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
    return `LLM response: ${text}`;
  },
});

/** `tools-call-elicitation`: asks the user for a username and an email address. */
export const testElicitation = defineTool({
  name: 'test_elicitation',
  title: 'Elicitation',
  description: 'Asks the user for a username and an email address through elicitation/create (conformance scenario tools-call-elicitation).',
  inputSchema: { message: z.string().describe('The message to show the user') },
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: async ({ message }, ctx) => {
    const result = await ctx.mcpReq.elicitInput({
      message,
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    });
    return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  },
});

/** `elicitation-sep1034-defaults`: every primitive type, each with a default. */
export const testElicitationDefaults = defineTool({
  name: 'test_elicitation_sep1034_defaults',
  title: 'Elicitation with defaults',
  description: 'Asks for a string, integer, number, enum and boolean, each with a default value (conformance scenario elicitation-sep1034-defaults).',
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: async (_args, ctx) => {
    const result = await ctx.mcpReq.elicitInput({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
      },
    });
    return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  },
});

/** `elicitation-sep1330-enums`: the five enum shapes of SEP-1330. */
export const testElicitationEnums = defineTool({
  name: 'test_elicitation_sep1330_enums',
  title: 'Elicitation with enums',
  description: 'Asks for single- and multi-select enums, titled and untitled, and a legacy enumNames enum (conformance scenario elicitation-sep1330-enums).',
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: async (_args, ctx) => {
    const result = await ctx.mcpReq.elicitInput({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Untitled single-select', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            description: 'Titled single-select',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Legacy titled enum (enumNames, deprecated)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Untitled multi-select',
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Titled multi-select',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
      },
    });
    return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  },
});
