/**
 * The diagnostic tools of the 2026-07-28 `server-stateless` scenario
 * (SEP-2575): one that needs a client capability the probe does not declare,
 * one whose answer needs elicitation (which on 2026-07-28 must ride an
 * input-required result, never a request on the response stream), one that
 * logs (dropped unless the request asked for a log level), and two that
 * change what the server lists, so open `subscriptions/listen` streams hear
 * `notifications/tools/list_changed` and `…/prompts/list_changed`.
 */
import { defineTool, inputRequired } from '@reactor/host';
import { LOGGER_NAME } from './notifyingTools.js';

/** What the trigger tools call: the serving script wires them to the host (e.g. toggling `conformance-dynamic`). */
export interface ConformanceTriggers {
  /** Changes the tool list. */
  toolsChanged(): void | Promise<void>;
  /** Changes the prompt list. */
  promptsChanged(): void | Promise<void>;
}

/** `test_missing_capability`: needs sampling; a client that did not declare it gets -32021 from the SDK. */
export const testMissingCapability = defineTool({
  name: 'test_missing_capability',
  title: 'Needs sampling',
  description: "Asks the client's model a question through an input-required result; a client that did not declare sampling is refused with -32021 (conformance scenario server-stateless).",
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: () =>
    inputRequired({
      inputRequests: {
        question: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 }),
      },
    }),
});

/** `test_streaming_elicitation`: needs the user's answer, so returns an input-required elicitation. */
export const testStreamingElicitation = defineTool({
  name: 'test_streaming_elicitation',
  title: 'Elicitation on the response stream',
  description: 'Asks the user for a value through an input-required result — on 2026-07-28 never as a request on the response stream (conformance scenario server-stateless).',
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: () =>
    inputRequired({
      inputRequests: {
        value: inputRequired.elicit({ message: 'Enter a value', requestedSchema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } }),
      },
    }),
});

/** `test_logging_tool`: logs once; the SDK drops it unless the request's `_meta` named a log level. */
export const testLoggingTool = defineTool({
  name: 'test_logging_tool',
  title: 'Logging',
  description: 'Sends one info log message, which reaches only a client that asked for a log level (conformance scenario server-stateless).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (_args, ctx) => {
    await ctx.mcpReq.log('info', 'test_logging_tool ran', LOGGER_NAME);
    return 'Logged one message.';
  },
});

/**
 * `http-custom-header-server-validation` (SEP-2243): `region` is mirrored in
 * an `Mcp-Param-Region` header (`x-mcp-header`), which the SDK checks against
 * the body before the call runs (the host answers its `toolInputSchemaJson`).
 */
export const testCustomHeader = defineTool({
  name: 'test_custom_header',
  title: 'Custom header',
  description: 'Echoes its region argument, which clients also send in the Mcp-Param-Region header (conformance scenario http-custom-header-server-validation).',
  inputSchema: {
    type: 'object',
    properties: { region: { type: 'string', description: 'A region name', 'x-mcp-header': 'Region' } },
    required: ['region'],
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => `region=${String(args['region'])}`,
});

/** The trigger tools: call `triggers`, or fail saying they are not wired when served without them. */
export function triggerTools(triggers: ConformanceTriggers | undefined) {
  const run = async (change: keyof ConformanceTriggers) => {
    if (!triggers) throw new Error(`${change} is not wired on this server: serve the conformance extensions with createConformance({ triggers }) (pnpm conformance:serve does)`);
    await triggers[change]();
    return `${change}: done`;
  };
  return [
    defineTool({
      name: 'test_trigger_tool_change',
      title: 'Change the tool list',
      description: 'Changes the tool list, so subscriptions/listen streams get notifications/tools/list_changed (conformance scenario server-stateless).',
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
      handler: () => run('toolsChanged'),
    }),
    defineTool({
      name: 'test_trigger_prompt_change',
      title: 'Change the prompt list',
      description: 'Changes the prompt list, so subscriptions/listen streams get notifications/prompts/list_changed (conformance scenario server-stateless).',
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
      handler: () => run('promptsChanged'),
    }),
  ] as const;
}
