/**
 * Tools whose results exercise the content types a `tools/call` may carry:
 * text, image, audio, an embedded resource, all of them at once, and an
 * error. Texts are the ones the conformance scenarios document.
 */
import { defineTool } from '@reactor/host';
import { PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64, SILENT_WAV_BASE64, WAV_MIME_TYPE } from './media.js';

/** `tools-call-simple-text`: one text item. */
export const testSimpleText = defineTool({
  name: 'test_simple_text',
  title: 'Simple text',
  description: 'Returns one text item (conformance scenario tools-call-simple-text).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }),
});

/** `tools-call-image`: one PNG image item. */
export const testImageContent = defineTool({
  name: 'test_image_content',
  title: 'Image content',
  description: 'Returns a 1×1 red PNG as an image item (conformance scenario tools-call-image).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: PNG_MIME_TYPE }] }),
});

/** `tools-call-audio`: one WAV audio item. */
export const testAudioContent = defineTool({
  name: 'test_audio_content',
  title: 'Audio content',
  description: 'Returns a 1 ms silent WAV as an audio item (conformance scenario tools-call-audio).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: () => ({ content: [{ type: 'audio', data: SILENT_WAV_BASE64, mimeType: WAV_MIME_TYPE }] }),
});

/** `tools-call-embedded-resource`: one embedded text resource. */
export const testEmbeddedResource = defineTool({
  name: 'test_embedded_resource',
  title: 'Embedded resource',
  description: 'Returns an embedded text resource (conformance scenario tools-call-embedded-resource).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: () => ({
    content: [
      {
        type: 'resource',
        resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
      },
    ],
  }),
});

/** `tools-call-mixed-content`: text, image and an embedded resource in one result. */
export const testMultipleContentTypes = defineTool({
  name: 'test_multiple_content_types',
  title: 'Multiple content types',
  description: 'Returns text, an image and an embedded resource in one result (conformance scenario tools-call-mixed-content).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: PNG_MIME_TYPE },
      {
        type: 'resource',
        resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
      },
    ],
  }),
});

/** The message `test_error_handling` fails with. */
export const INTENTIONAL_ERROR_MESSAGE = 'This tool intentionally returns an error for testing';

/**
 * `tools-call-error`: throws, so the host's own conversion is what is tested —
 * a thrown error must reach the client as `isError: true` with its message.
 */
export const testErrorHandling = defineTool({
  name: 'test_error_handling',
  title: 'Error handling',
  description: 'Always fails; the client receives isError: true with the message (conformance scenario tools-call-error).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: () => {
    throw new Error(INTENTIONAL_ERROR_MESSAGE);
  },
});

/** The name the `json-schema-2020-12` scenario looks for. */
export const JSON_SCHEMA_2020_12_TOOL = 'json_schema_2020_12_tool';

/**
 * `json-schema-2020-12` (SEP-1613, SEP-2106): a plain JSON Schema using
 * 2020-12 keywords. The host keeps plain schemas as is, so `$schema`, `$defs`
 * (with an `$anchor`), `allOf`/`anyOf`, `if`/`then`/`else` and
 * `additionalProperties` must reach `tools/list` untouched.
 */
export const jsonSchema2020Tool = defineTool({
  name: JSON_SCHEMA_2020_12_TOOL,
  title: 'JSON Schema 2020-12',
  description: 'Tool with JSON Schema 2020-12 features (conformance scenario json-schema-2020-12).',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'addressDef',
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' } },
      },
    },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => ({ content: [{ type: 'text', text: `Received: ${JSON.stringify(args)}` }] }),
});
