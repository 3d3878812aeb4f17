/**
 * `@reactor/host`: build MCP servers out of plugins. Re-exports by name only;
 * `index.test.ts` pins the list, so adding an export is a visible API change.
 */
export { ErrorCodes, ReactorError, isReactorError, describeValue } from './errors.js';
export type { ErrorCode, ReactorErrorDetails } from './errors.js';
export { createStderrLogger, silentLogger, LOG_LEVELS } from './logger.js';
export type { Logger, LogFn, LogLevel } from './logger.js';
export {
  parseSelection,
  mergeSelections,
  activeToolsets,
  unknownNames,
  activationKey,
  onToolset,
  selectionToQuery,
  namesInSelection,
  EMPTY_SELECTION,
} from './selection.js';
export type { Selection, SelectionInput, ToolsetActivation } from './selection.js';
export { defineTool, toCallToolResult, TOOL_NAME_PATTERN } from './tool.js';
export type { ToolSpec, ToolHandler, ToolContext, ToolDefinition, ToolAnnotations, CallToolResult, InputRequiredResult } from './tool.js';
export { inputRequired, acceptedContent, inputResponse, isInputRequiredResult } from './sdk/inputRequired.js';
export { MIN_REQUEST_STATE_KEY_BYTES } from './sdk/requestState.js';
export type { Toolset, DescribedToolset } from './toolset.js';
export type { ToolExtension, AnyToolHandler } from './toolExtension.js';
export type { Middleware, MiddlewareCall, MiddlewareMethod, MiddlewareNext } from './middleware.js';
export { DEPRECATED_NAME_META } from './toolAlias.js';
export type { DeprecatedNameHint } from './toolAlias.js';
export type { ResourceSpec, PromptSpec, ListedResource, Completions, CompletionContext, ReadResourceResult, GetPromptResult } from './resource.js';
export { defineExtension, isExtension, EXTENSION_NAME_PATTERN } from './extension.js';
export type { McpExtension, PluginManifest, OnServerContext, ExtensionStartContext, ToolHandle, DeferredExtension, ExtensionInput } from './extension.js';
export type { SchemaLike, JsonSchemaObject, StandardSchemaLike, InferSchema } from './schema.js';
export { buildHost, McpHost } from './host.js';
export type { HostOptions, BuildOptions, DescribeOptions, BuiltServer, HostDescription, HostReport, ExtensionStatus } from './host.js';
export type { TelemetryOptions } from './telemetry/requestTelemetry.js';
export type { HostChange, HostChangeListener } from './changes.js';
export type { DescribedToolFilter } from './hostReport.js';
export type { TokenCounter, ToolTokens } from './tokens.js';
export type { Conflict } from './resolve.js';
export type { ExtensionAvailability, Unavailable } from './availability.js';
export type { Problem } from './problems.js';
export type { ServerFactory } from './sdk/mint.js';
export { LIST_SERVER_TOOLSETS, howToSelect } from './listToolsets.js';
export { HOST_VERSION } from './version.js';
// serving
export { createMcpApp } from './http/app.js';
export type { McpApp } from './http/app.js';
export type { McpAppOptions, McpAppHealthCheck } from './http/options.js';
export type { SessionScopedEventStore } from './http/sessionEventStore.js';
export type { SessionClaim, SessionInitializeParams, SessionRecord, SessionRegistry } from './http/sessionRegistry.js';
export type { McpAppSessionOptions, SessionOwner } from './http/sessions.js';
export { principalOf } from './http/auth.js';
export type { McpAppAuthOptions } from './http/auth.js';
export type { HealthzBody, HealthzExtension, ToolsetsBody } from './http/infoRoutes.js';
export { SELECTION_HEADER, TOOL_FILTER_HEADERS } from './http/requestSelection.js';
export type { CatalogContext, CatalogRenderer } from './http/catalog.js';
export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './http/cors.js';
export { SERVER_CARD_MEDIA_TYPE } from './http/serverCard.js';
export type { ServerCard, ServerCardOptions } from './http/serverCard.js';
export { serveStdio } from './stdio.js';
export type { ServeStdioOptions, StdioServing } from './stdio.js';
// discovery and command
export { loadExtensions } from './discovery.js';
export type { LoadExtensionsOptions } from './discovery.js';
export type { ReactorMcpEntry } from './reactorMcpField.js';
export { parseCommandOptions, runCommand, COMMAND_HELP } from './command.js';
export type { CommandOptions, CommandDependencies, RunningCommand } from './command.js';
export type { CommandAuthOptions } from './auth/options.js';
export type { AuthSummary } from './auth/summary.js';
