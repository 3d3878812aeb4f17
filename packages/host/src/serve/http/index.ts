/**
 * `@reactor/host/http`: serving a host over Streamable HTTP — `createMcpApp`,
 * its options, sessions shared across replicas, auth, CORS and the info
 * routes. The same names are exported by the package root; import them from
 * here to say, and to load, only what serving needs.
 */
export { createMcpApp } from './app.js';
export type { McpApp } from './app.js';
export type { McpAppOptions, McpAppHealthCheck } from './options.js';
export type { SessionScopedEventStore } from './sessions/sessionEventStore.js';
export type { SessionClaim, SessionInitializeParams, SessionOwner, SessionRecord, SessionRegistry } from './sessions/sessionRegistry.js';
export type { McpAppSessionOptions } from './sessions/sessions.js';
export { createMemoryTaskStore } from './tasks/memoryTaskStore.js';
export type { MemoryTaskStoreOptions } from './tasks/memoryTaskStore.js';
export type { McpAppTaskOptions, TaskAnswer, TaskCounts, TaskCreation, TaskError, TaskLimits, TaskPatch, TaskRecord, TaskStatus, TaskStore } from './tasks/taskStore.js';
export type { McpAppAuthOptions } from './auth.js';
export type { HealthzBody, HealthzExtension, ToolsetsBody } from './infoRoutes.js';
export { SELECTION_HEADER, TOOL_FILTER_HEADERS } from './requestSelection.js';
export type { CatalogContext, CatalogRenderer } from './catalog.js';
export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './cors.js';
export { SERVER_CARD_MEDIA_TYPE } from './serverCard.js';
export type { ServerCard, ServerCardOptions } from './serverCard.js';
