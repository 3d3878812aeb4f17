/**
 * The keys of the host's internals: members of `McpHost` (and of the built
 * servers it returns) that other parts of this package read — the HTTP app,
 * the fast path, the command's metrics, the tests — but that no user of the
 * package can reach by name, since no entry point exports these symbols (the
 * way Fastify keeps `lib/symbols.js`). A symbol-keyed member costs what a
 * named one costs to read, so the hot path pays nothing for the seam.
 *
 * Only symbols shared between modules live here; a symbol one module both
 * writes and reads stays private to it (`requestRecord.ts`, `mint.ts`,
 * `protocol.ts`). This file imports nothing, so every layer may import it.
 */

/** `McpHost`'s `build()` answered at once when nothing needs awaiting: read per request by the HTTP endpoint and the fast path (`serve/http/protocol.ts`). */
export const HOST_BUILD_NOW: unique symbol = Symbol('reactor.host.buildNow');

/** `McpHost`'s counters of expensive work (`HostStats`): read by the fast path (`fastAnswers`, `fetchRequests`), the shared servers, the metrics and the structural tests. */
export const HOST_STATS: unique symbol = Symbol('reactor.host.stats');

/** `McpHost`'s usage counts (`HostUsage`: selections served, cache hits): read by the command's Prometheus metrics. */
export const HOST_USAGE: unique symbol = Symbol('reactor.host.usage');

/** `McpHost`'s request telemetry (its `telemetry` option; undefined when off): read by the HTTP app for its spans and session metric. */
export const HOST_REQUEST_TELEMETRY: unique symbol = Symbol('reactor.host.requestTelemetry');

/** Tells only this process's subscribed 2025 sessions of a resource update: called by the HTTP app for an update another replica announced. */
export const HOST_NOTIFY_SUBSCRIBED_SESSIONS: unique symbol = Symbol('reactor.host.notifySubscribedSessions');

/** How many entries each of `McpHost`'s bounded caches holds: read by the command's metrics and the memory tests. */
export const HOST_CACHE_SIZES: unique symbol = Symbol('reactor.host.cacheSizes');

/** Resolves every awake extension's tools now and returns the start-up problems: called by `buildHost` for `strict`. */
export const HOST_STARTUP_PROBLEMS: unique symbol = Symbol('reactor.host.startupProblems');

/** The blueprint behind a built server the host returned: read by the fast path, which shares servers per blueprint. */
export const BUILT_BLUEPRINT: unique symbol = Symbol('reactor.built.blueprint');

/** The tokenizer the dynamic-toolset tools count with (set by the HTTP app from its `tokenCounter`). */
export const HOST_TOKEN_COUNTER: unique symbol = Symbol('reactor.host.tokenCounter');

/** The tasks engine (2026-07-28 tasks extension) set by the HTTP app and read when a server is minted (`host/mint/tasks.ts`). */
export const HOST_TASKS: unique symbol = Symbol('reactor.host.tasks');
