/**
 * `@reactor/host`: build MCP servers out of plugins. Re-exports by name only;
 * `index.test.ts` pins the list, so adding an export is a visible API change.
 */
export { ErrorCodes, ReactorError, isReactorError, describeValue } from './kernel/errors.js';
export type { ErrorCode, ReactorErrorDetails } from './kernel/errors.js';
export { createStderrLogger, silentLogger, LOG_LEVELS } from './kernel/logger.js';
export type { Logger, LogFn, LogLevel } from './kernel/logger.js';
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
} from './selection/selection.js';
export type { Selection, SelectionInput, ToolsetActivation } from './selection/selection.js';
export { defineTool, toCallToolResult, TOOL_NAME_PATTERN } from './contract/tool.js';
export type { ToolSpec, ToolHandler, ToolContext, ToolDefinition, ToolResultOf, StructuredContentOf, ToolAnnotations, CallToolResult, InputRequiredResult } from './contract/tool.js';
export { encodeCursor, decodeCursor, cursorMismatch, truncateMiddle, omittedMarker, readLimit } from './contract/answers.js';
export type { DecodeCursorOptions, LimitSource } from './contract/answers.js';
export { answerBudget, capItems, fitAnswer, largestFitting, DEFAULT_ANSWER_TOKENS } from './contract/budget.js';
export type { AnswerBudget } from './contract/budget.js';
export { capAnswer } from './contract/capAnswer.js';
export type { Truncation } from './contract/capAnswer.js';
export { answerTokenCounter } from './contract/tokens.js';
export { inputRequired, acceptedContent, inputResponse, isInputRequiredResult } from './contract/inputRequired.js';
export { MIN_REQUEST_STATE_KEY_BYTES } from './host/mint/requestState.js';
export type { Toolset, DescribedToolset } from './contract/toolset.js';
export type { ToolExtension, AnyToolHandler, DeriveOutputSchema } from './contract/toolExtension.js';
export type { Middleware, MiddlewareCall, MiddlewareMethod, MiddlewareNext } from './contract/middleware.js';
export { DEPRECATED_NAME_META } from './host/build/toolAlias.js';
export type { DeprecatedNameHint } from './host/build/toolAlias.js';
export type { ResourceSpec, PromptSpec, ListedResource, Completions, CompletionContext, ReadResourceResult, GetPromptResult } from './contract/resource.js';
export { defineExtension, isExtension, EXTENSION_NAME_PATTERN } from './contract/extension.js';
export type { McpExtension, PluginManifest, OnServerContext, ExtensionStartContext, ToolHandle, DeferredExtension, ExtensionInput } from './contract/extension.js';
export type { SchemaLike, JsonSchemaObject, StandardSchemaLike, InferSchema } from './contract/schema.js';
export { buildHost, McpHost } from './host/host.js';
export type { HostOptions, BuildOptions, DescribeOptions, BuiltServer, HostDescription, HostReport, ExtensionStatus } from './host/host.js';
export type { TelemetryOptions } from './telemetry/requestTelemetry.js';
export type { HostChange, HostChangeListener } from './host/changes.js';
export type { DescribedToolFilter } from './host/hostReport.js';
export type { TokenCounter, ToolTokens } from './host/tokens.js';
export type { Conflict } from './host/build/resolve.js';
export type { ExtensionAvailability, Unavailable } from './contract/extension.js';
export type { Problem } from './kernel/problems.js';
export type { ServerFactory } from './host/mint/mint.js';
export { LIST_SERVER_TOOLSETS, howToSelect } from './host/listToolsets.js';
export { HOST_VERSION } from './kernel/version.js';
// serving
export { createMcpApp } from './serve/http/app.js';
export type { McpApp } from './serve/http/app.js';
export type { McpAppOptions, McpAppHealthCheck } from './serve/http/options.js';
export type { SessionScopedEventStore } from './serve/http/sessions/sessionEventStore.js';
export type { SessionClaim, SessionInitializeParams, SessionOwner, SessionRecord, SessionRegistry } from './serve/http/sessions/sessionRegistry.js';
export type { McpAppSessionOptions } from './serve/http/sessions/sessions.js';
export { createMemoryTaskStore } from './serve/http/tasks/memoryTaskStore.js';
export type { MemoryTaskStoreOptions } from './serve/http/tasks/memoryTaskStore.js';
export type { McpAppTaskOptions, TaskAnswer, TaskCounts, TaskCreation, TaskError, TaskLimits, TaskPatch, TaskRecord, TaskStatus, TaskStore } from './serve/http/tasks/taskStore.js';
export { TASKS_EXTENSION } from './contract/task.js';
export type { TaskReporter, TaskSupport } from './contract/task.js';
export { principalOf } from './kernel/principal.js';
export type { McpAppAuthOptions } from './serve/http/auth.js';
export type { HealthzBody, HealthzExtension, ToolsetsBody } from './serve/http/infoRoutes.js';
export { SELECTION_HEADER, TOOL_FILTER_HEADERS } from './serve/http/requestSelection.js';
export type { CatalogContext, CatalogRenderer } from './serve/http/catalog.js';
export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './serve/http/cors.js';
export { SERVER_CARD_MEDIA_TYPE } from './serve/http/serverCard.js';
export type { ServerCard, ServerCardOptions } from './serve/http/serverCard.js';
export { serveStdio } from './serve/stdio.js';
export type { ServeStdioOptions, StdioServing } from './serve/stdio.js';
// discovery and command
export { loadExtensions } from './discovery/discovery.js';
export type { LoadExtensionsOptions } from './discovery/discovery.js';
export type { ReactorMcpEntry } from './discovery/reactorMcpField.js';
export { parseCommandOptions, runCommand, COMMAND_HELP } from './command/command.js';
export type { CommandOptions, CommandDependencies, RunningCommand } from './command/command.js';
export type { CommandAuthOptions } from './command/auth/options.js';
export type { AuthSummary } from './command/auth/summary.js';
