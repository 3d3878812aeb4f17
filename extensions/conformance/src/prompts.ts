/**
 * The prompts the conformance scenarios get and complete: one without
 * arguments, one with two, one embedding a resource, one carrying an image,
 * and one that needs the user's input first (an input-required result).
 */
import { acceptedContent, inputRequired, type PromptSpec } from '@reactor/host';
import { z } from 'zod';
import { PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64 } from './media.js';

/** Suggestions `completion/complete` offers for `test_prompt_with_arguments`, by prefix. */
export const ARGUMENT_SUGGESTIONS = ['hello', 'help', 'test', 'testValue1', 'testValue2', 'world'] as const;

const suggest = (value: string): string[] => ARGUMENT_SUGGESTIONS.filter((s) => s.startsWith(value));

/** The conformance prompts, in the order `prompts/list` shows them. */
export const conformancePrompts: PromptSpec[] = [
  {
    name: 'test_simple_prompt',
    title: 'Simple prompt',
    description: 'A prompt without arguments (conformance scenario prompts-get-simple).',
    get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] }),
  },
  {
    name: 'test_prompt_with_arguments',
    title: 'Prompt with arguments',
    description: 'A prompt whose two arguments are substituted into its text (conformance scenarios prompts-get-with-args and completion-complete).',
    argsSchema: {
      arg1: z.string().describe('First test argument'),
      arg2: z.string().describe('Second test argument'),
    },
    get: ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1 ?? ''}', arg2='${arg2 ?? ''}'` } }],
    }),
    complete: { arg1: suggest, arg2: suggest },
  },
  {
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt with an embedded resource',
    description: 'A prompt embedding the resource named by its argument (conformance scenario prompts-get-embedded-resource).',
    argsSchema: { resourceUri: z.string().describe('URI of the resource to embed') },
    get: ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'resource', resource: { uri: resourceUri ?? '', mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  },
  {
    name: 'test_prompt_with_image',
    title: 'Prompt with an image',
    description: 'A prompt carrying a 1×1 red PNG (conformance scenario prompts-get-with-image).',
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: PNG_MIME_TYPE } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  },
  {
    name: 'test_input_required_result_prompt',
    title: 'Prompt that needs input',
    description: 'Returns an input-required result asking the user for context, then the prompt using it (conformance scenario input-required-result-non-tool-request).',
    get: (_args, ctx) => {
      const context = acceptedContent<{ context?: unknown }>(ctx.mcpReq.inputResponses, 'user_context')?.context;
      if (typeof context !== 'string') {
        return inputRequired({
          inputRequests: {
            user_context: inputRequired.elicit({
              message: 'What context should the prompt use?',
              requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
            }),
          },
        });
      }
      return { messages: [{ role: 'user', content: { type: 'text', text: `Answer with this context in mind: ${context}` } }] };
    },
  },
];
