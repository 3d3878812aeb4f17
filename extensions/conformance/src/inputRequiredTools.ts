/**
 * Tools of the 2026-07-28 multi-round-trip pattern (SEP-2322, conformance
 * scenarios `input-required-result-*`): instead of sending the client a
 * request mid-call, a handler returns `inputRequired({ inputRequests,
 * requestState })` and the client calls again with `inputResponses` and the
 * echoed `requestState`. The host signs `requestState` and verifies it on the
 * retry, so these handlers write and read plain strings.
 */
import { acceptedContent, defineTool, inputRequired, inputResponse, type ToolContext } from '@reactor/host';

const NAME_REQUEST = inputRequired.elicit({
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});

/** The text of a sampling response, or `undefined` when the key holds none. */
function samplingText(ctx: ToolContext, key: string): string | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  if (view.kind !== 'sampling') return undefined;
  const blocks = Array.isArray(view.result.content) ? view.result.content : [view.result.content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

/** The URIs of a roots response, or `undefined` when the key holds none. */
function rootUris(ctx: ToolContext, key: string): string[] | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  return view.kind === 'roots' ? view.roots.map((root) => root.uri) : undefined;
}

/** `input-required-result-basic-elicitation` (and the scenarios reusing it): asks the user's name. */
export const testInputRequiredElicitation = defineTool({
  name: 'test_input_required_result_elicitation',
  title: 'Input required: elicitation',
  description: 'Returns an input-required result asking the user for their name, then greets them (conformance scenario input-required-result-basic-elicitation).',
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: (_args, ctx) => {
    const answer = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'user_name');
    // A missing or malformed answer is asked for again rather than refused (SEP-2322 SHOULD).
    if (typeof answer?.name !== 'string') return inputRequired({ inputRequests: { user_name: NAME_REQUEST } });
    return `Hello, ${answer.name}!`;
  },
});

/** `input-required-result-basic-sampling`: asks the client's model a question. */
export const testInputRequiredSampling = defineTool({
  name: 'test_input_required_result_sampling',
  title: 'Input required: sampling',
  description: "Returns an input-required result asking the client's model for the capital of France (conformance scenario input-required-result-basic-sampling).",
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: (_args, ctx) => {
    const text = samplingText(ctx, 'capital_question');
    if (text === undefined) {
      return inputRequired({
        inputRequests: {
          capital_question: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
          }),
        },
      });
    }
    return `LLM response: ${text}`;
  },
});

/** `input-required-result-basic-list-roots`: asks for the client's roots. */
export const testInputRequiredListRoots = defineTool({
  name: 'test_input_required_result_list_roots',
  title: 'Input required: roots',
  description: "Returns an input-required result asking for the client's roots, then lists them (conformance scenario input-required-result-basic-list-roots).",
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: (_args, ctx) => {
    const roots = rootUris(ctx, 'client_roots');
    if (roots === undefined) return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    return `Client roots: ${roots.join(', ') || '(none)'}`;
  },
});

/** `input-required-result-request-state`: round-trips a request state and confirms it came back. */
export const testInputRequiredRequestState = defineTool({
  name: 'test_input_required_result_request_state',
  title: 'Input required: request state',
  description: 'Returns an input-required result with a request state and answers "state-ok" when the same state comes back (conformance scenario input-required-result-request-state).',
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: (_args, ctx) => {
    const state = ctx.mcpReq.requestState<string>();
    const confirmed = acceptedContent<{ ok?: unknown }>(ctx.mcpReq.inputResponses, 'confirm');
    if (state !== 'awaiting-confirmation' || confirmed === undefined) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Please confirm',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          }),
        },
        requestState: 'awaiting-confirmation',
      });
    }
    return `state-ok: confirmed=${String(confirmed.ok)}`;
  },
});

/** `input-required-result-multiple-input-requests`: elicitation, sampling and roots at once. */
export const testInputRequiredMultipleInputs = defineTool({
  name: 'test_input_required_result_multiple_inputs',
  title: 'Input required: several inputs',
  description: 'Returns one input-required result with an elicitation, a sampling and a roots request (conformance scenario input-required-result-multiple-input-requests).',
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: (_args, ctx) => {
    const name = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'user_name')?.name;
    const greeting = samplingText(ctx, 'greeting');
    const roots = rootUris(ctx, 'client_roots');
    if (ctx.mcpReq.requestState() !== 'multiple-inputs' || typeof name !== 'string' || greeting === undefined || roots === undefined) {
      return inputRequired({
        inputRequests: {
          user_name: NAME_REQUEST,
          greeting: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }),
          client_roots: inputRequired.listRoots(),
        },
        requestState: 'multiple-inputs',
      });
    }
    return `name=${name}; greeting=${greeting}; roots=${roots.join(', ') || '(none)'}`;
  },
});

/** `input-required-result-multi-round`: two rounds, the state evolving between them. */
export const testInputRequiredMultiRound = defineTool({
  name: 'test_input_required_result_multi_round',
  title: 'Input required: two rounds',
  description: 'Asks for a name, then (with an updated request state) a favourite colour, then answers (conformance scenario input-required-result-multi-round).',
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: (_args, ctx) => {
    const state = ctx.mcpReq.requestState<string>();
    if (state?.startsWith('round-2:') === true) {
      const color = acceptedContent<{ color?: unknown }>(ctx.mcpReq.inputResponses, 'step2')?.color;
      if (typeof color === 'string') return `${state.slice('round-2:'.length)} likes ${color}`;
      return inputRequired({ inputRequests: { step2: colorRequest() }, requestState: state });
    }
    const name = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'step1')?.name;
    if (state === 'round-1' && typeof name === 'string') {
      return inputRequired({ inputRequests: { step2: colorRequest() }, requestState: `round-2:${name}` });
    }
    return inputRequired({
      inputRequests: {
        step1: inputRequired.elicit({
          message: 'Step 1: What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        }),
      },
      requestState: 'round-1',
    });
  },
});

function colorRequest() {
  return inputRequired.elicit({
    message: 'Step 2: What is your favorite color?',
    requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
  });
}

/** `input-required-result-tampered-state`: its request state is signed, so an altered one is refused. */
export const testInputRequiredTamperedState = defineTool({
  name: 'test_input_required_result_tampered_state',
  title: 'Input required: tamper-proof state',
  description: 'Returns an input-required result whose request state the host signs; a retry with an altered state gets -32602 (conformance scenario input-required-result-tampered-state).',
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: (_args, ctx) => {
    const answer = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'user_name');
    if (ctx.mcpReq.requestState() !== 'untampered' || typeof answer?.name !== 'string') {
      return inputRequired({ inputRequests: { user_name: NAME_REQUEST }, requestState: 'untampered' });
    }
    return `Hello, ${answer.name}! (state verified)`;
  },
});

/** `input-required-result-capability-check`: asks only for what the client declared it can do. */
export const testInputRequiredCapabilities = defineTool({
  name: 'test_input_required_result_capabilities',
  title: 'Input required: declared capabilities only',
  description: "Returns input requests only for the capabilities the request's client declared (conformance scenario input-required-result-capability-check).",
  annotations: { readOnlyHint: true, openWorldHint: true },
  handler: (_args, ctx) => {
    const declared = clientCapabilities(ctx);
    const requests: Parameters<typeof inputRequired>[0]['inputRequests'] = {};
    if (declared.sampling !== undefined && samplingText(ctx, 'greeting') === undefined) {
      requests.greeting = inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 });
    }
    if (declared.elicitation !== undefined && acceptedContent(ctx.mcpReq.inputResponses, 'user_name') === undefined) requests.user_name = NAME_REQUEST;
    if (declared.roots !== undefined && rootUris(ctx, 'client_roots') === undefined) requests.client_roots = inputRequired.listRoots();
    if (Object.keys(requests).length > 0) return inputRequired({ inputRequests: requests });
    return `Capabilities used: ${Object.keys(declared).sort().join(', ') || '(none)'}`;
  },
});

/** The client capabilities this request declared: its 2026-07-28 `_meta` envelope. */
export function clientCapabilities(ctx: ToolContext): Record<string, unknown> {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const declared = envelope['io.modelcontextprotocol/clientCapabilities'];
  return typeof declared === 'object' && declared !== null ? (declared as Record<string, unknown>) : {};
}

/** The input-required tools, in list order. */
export const inputRequiredTools = [
  testInputRequiredElicitation,
  testInputRequiredSampling,
  testInputRequiredListRoots,
  testInputRequiredRequestState,
  testInputRequiredMultipleInputs,
  testInputRequiredMultiRound,
  testInputRequiredTamperedState,
  testInputRequiredCapabilities,
] as const;
