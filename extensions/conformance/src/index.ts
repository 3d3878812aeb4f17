/**
 * `@reactor/ext-conformance`: the official MCP conformance suite's server
 * surface as two Reactor MCP extensions — `conformance` (the tools,
 * resources, prompts and completions) and `conformance-passthrough` (a
 * transparent wrapper around every conformance tool).
 */
export { conformance, createConformance, CONFORMANCE_TOOLSET, CONFORMANCE_VERSION } from './conformance.js';
export type { ConformanceOptions } from './conformance.js';
export { conformanceDynamic, CONFORMANCE_DYNAMIC } from './dynamic.js';
export type { ConformanceTriggers } from './diagnosticTools.js';
export { clientCapabilities } from './inputRequiredTools.js';
export { conformancePassthrough, createConformancePassthrough, passthroughOf } from './passthrough.js';
export type { ConformancePassthroughOptions } from './passthrough.js';
export { conformanceTools, conformanceToolsWith, CONFORMANCE_TOOL_NAMES } from './tools.js';
export { conformanceResources, STATIC_TEXT, WATCHED_RESOURCE_URI, DATA_TEMPLATE } from './resources.js';
export { conformancePrompts, ARGUMENT_SUGGESTIONS } from './prompts.js';
export { INTENTIONAL_ERROR_MESSAGE, JSON_SCHEMA_2020_12_TOOL } from './contentTools.js';
export { LOG_MESSAGES, LOGGER_NAME, PROGRESS_STEPS, PROGRESS_TOTAL } from './notifyingTools.js';
export { RED_PIXEL_PNG_BASE64, SILENT_WAV_BASE64, PNG_MIME_TYPE, WAV_MIME_TYPE, silentWav } from './media.js';
