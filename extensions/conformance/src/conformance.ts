/**
 * The `conformance` extension: everything the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`) expects a server to offer, served
 * through the Reactor host's contribution points like any other extension.
 */
import { createRequire } from 'node:module';
import { defineExtension } from '@reactor/host';
import { conformancePrompts } from './prompts.js';
import { conformanceResources } from './resources.js';
import type { ConformanceTriggers } from './diagnosticTools.js';
import { conformanceToolsWith } from './tools.js';

/** The toolset the conformance tools, resources and prompts belong to. */
export const CONFORMANCE_TOOLSET = 'conformance';

// Read from package.json (one level above both src/ and dist/), so a release
// bumps the manifest's version without a code edit.
const require = createRequire(import.meta.url);

/** The extension's version: its package's. */
export const CONFORMANCE_VERSION: string = (require('../package.json') as { version: string }).version;

/** Options of {@link createConformance}. */
export interface ConformanceOptions {
  /** What `test_trigger_tool_change` / `test_trigger_prompt_change` do; without, they fail saying so. */
  readonly triggers?: ConformanceTriggers;
}

/** Makes the `conformance` extension; `options.triggers` wires the list-changing tools to a host. */
export function createConformance(options: ConformanceOptions = {}) {
  const tools = conformanceToolsWith(options.triggers);
  return defineExtension({
    manifest: {
      name: 'conformance',
      version: CONFORMANCE_VERSION,
      title: 'MCP conformance',
      description: 'The tools, resources and prompts the official MCP conformance suite exercises.',
    },
    toolsets: () => [
      {
        name: CONFORMANCE_TOOLSET,
        title: 'MCP conformance',
        description: 'Test tools, resources and prompts of the official MCP conformance suite (test_simple_text, test://static-text, test_simple_prompt, …).',
        default: true,
      },
    ],
    tools: () => tools,
    resources: () => conformanceResources,
    prompts: () => conformancePrompts,
  });
}

/** The extension serving the conformance suite's tools, resources, prompts and completions (trigger tools not wired). */
export const conformance = createConformance();

export default conformance;
