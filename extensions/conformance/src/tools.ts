/** Every conformance tool, in the order `tools/list` shows them. */
import type { ToolSpec } from '@reactor/host';
import { testElicitation, testElicitationDefaults, testElicitationEnums, testSampling } from './clientRequestTools.js';
import {
  jsonSchema2020Tool,
  testAudioContent,
  testEmbeddedResource,
  testErrorHandling,
  testImageContent,
  testMultipleContentTypes,
  testSimpleText,
} from './contentTools.js';
import { testCustomHeader, testLoggingTool, testMissingCapability, testStreamingElicitation, triggerTools, type ConformanceTriggers } from './diagnosticTools.js';
import { inputRequiredTools } from './inputRequiredTools.js';
import { taskTools } from './taskTools.js';
import { testReconnection, testToolWithLogging, testToolWithProgress } from './notifyingTools.js';

/**
 * The conformance tools, their trigger tools calling `triggers` (or failing,
 * saying they are not wired, without). Their args types differ, so the list is
 * typed at the contract's `never`.
 */
export function conformanceToolsWith(triggers: ConformanceTriggers | undefined): ReadonlyArray<ToolSpec<never>> {
  return [...baseTools, ...inputRequiredTools, ...taskTools, testMissingCapability, testStreamingElicitation, testLoggingTool, testCustomHeader, ...triggerTools(triggers)] as ReadonlyArray<ToolSpec<never>>;
}

const baseTools = [
  testSimpleText,
  testImageContent,
  testAudioContent,
  testEmbeddedResource,
  testMultipleContentTypes,
  testErrorHandling,
  testToolWithLogging,
  testToolWithProgress,
  testSampling,
  testElicitation,
  testElicitationDefaults,
  testElicitationEnums,
  jsonSchema2020Tool,
  testReconnection,
];

/** The conformance tools as the `conformance` extension serves them (trigger tools not wired). */
export const conformanceTools: ReadonlyArray<ToolSpec<never>> = conformanceToolsWith(undefined);

/** The names of {@link conformanceTools}, in list order. */
export const CONFORMANCE_TOOL_NAMES: readonly string[] = conformanceTools.map((tool) => tool.name);
