/**
 * The `conformance-dynamic` extension: one tool and one prompt whose only
 * purpose is to come and go. The serving script's trigger tools disable and
 * enable this extension on the host, which changes what every selection
 * serves — so open `subscriptions/listen` streams hear
 * `notifications/tools/list_changed` and `…/prompts/list_changed`.
 */
import { defineExtension, defineTool } from '@reactor/host';
import { CONFORMANCE_VERSION } from './conformance.js';

/** The extension's name, the one the trigger tools toggle. */
export const CONFORMANCE_DYNAMIC = 'conformance-dynamic';

/** The extension that comes and goes. */
export const conformanceDynamic = defineExtension({
  manifest: {
    name: CONFORMANCE_DYNAMIC,
    version: CONFORMANCE_VERSION,
    title: 'MCP conformance: dynamic surface',
    description: 'A tool and a prompt the conformance trigger tools remove and restore, so list-changed notifications can be observed.',
  },
  toolsets: () => [
    {
      name: CONFORMANCE_DYNAMIC,
      title: 'MCP conformance: dynamic surface',
      description: 'test_dynamic_tool and test_dynamic_prompt, removed and restored by test_trigger_tool_change / test_trigger_prompt_change.',
      default: true,
    },
  ],
  tools: () => [
    defineTool({
      name: 'test_dynamic_tool',
      title: 'Dynamic tool',
      description: 'Listed only while the conformance-dynamic extension is enabled.',
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: () => 'still here',
    }),
  ],
  prompts: () => [
    {
      name: 'test_dynamic_prompt',
      description: 'Listed only while the conformance-dynamic extension is enabled.',
      get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'still here' } }] }),
    },
  ],
});

export default conformanceDynamic;
