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
import { testReconnection, testToolWithLogging, testToolWithProgress } from './notifyingTools.js';

/** The conformance tools. Their args types differ, so the list is typed at the contract's `never`. */
export const conformanceTools: ReadonlyArray<ToolSpec<never>> = [
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
] as ReadonlyArray<ToolSpec<never>>;

/** The names of {@link conformanceTools}, in list order. */
export const CONFORMANCE_TOOL_NAMES: readonly string[] = conformanceTools.map((tool) => tool.name);
