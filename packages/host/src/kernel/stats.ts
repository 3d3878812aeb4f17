/**
 * Counters of a host's expensive operations. They exist so tests can prove
 * structural properties — a cache hit converts no schema and resolves no
 * extension, a minted server registers no per-tool state — by counting, never
 * by timing. Each host owns its counters (`host[HOST_STATS]`) and hands them to the
 * code that does the work, so two hosts in one process never count into each
 * other. Not part of the public API.
 */
export interface HostStats {
  /** JSON Schema conversions of tool/prompt schemas. */
  schemaConversions: number;
  /** Resolutions of an extension's tools (extensions applied, toolsets filled). */
  resolutions: number;
  /** Blueprints computed (cache misses). */
  blueprints: number;
  /** SDK servers minted from a blueprint. */
  mints: number;
  /** Tools registered on one minted server only (an `onServer` hook's `server.registerTool`); shared tables make minting itself add none. */
  toolRegistrations: number;
  /** `tools/list` results rendered (once per blueprint, and once per narrowed view). */
  listRenders: number;
  /** Views of a blueprint narrowed by a tool filter (`tools=`, `exclude_tools=`, read-only). */
  views: number;
  /** Requests the HTTP app's fast path answered (the rest took the SDK's per-request path). */
  fastAnswers: number;
  /** Fetch `Request`s the fast path made for a Node request: only when the auth gate or a handler (`ctx.http.req`) read one. */
  fetchRequests: number;
  /** `tools/call`s a shared 2026-07-28 server answered without the SDK's per-call parses, which could not have changed the answer (`serve/http/fast/leanToolsCall.ts`). */
  leanToolCalls: number;
  /** Fast-path `tools/call`s handed to the lean handler without the SDK's `_onrequest` (`serve/http/fast/leanDispatch.ts`). */
  leanDispatches: number;
}

/** Fresh counters, all zero. */
export function createStats(): HostStats {
  return { schemaConversions: 0, resolutions: 0, blueprints: 0, mints: 0, toolRegistrations: 0, listRenders: 0, views: 0, fastAnswers: 0, fetchRequests: 0, leanToolCalls: 0, leanDispatches: 0 };
}

/** A copy of the counters, for before/after comparisons in tests. */
export function snapshotStats(stats: HostStats): HostStats {
  return { ...stats };
}

/** What changed between a snapshot and now, counter by counter. */
export function statsSince(before: HostStats, now: HostStats): HostStats {
  const out = createStats();
  for (const key of Object.keys(out) as Array<keyof HostStats>) out[key] = now[key] - before[key];
  return out;
}

/**
 * How a host is used, for metrics (`--metrics-port`): kept apart from
 * {@link HostStats}, whose counters tests compare whole. Not part of the public API.
 */
export interface HostUsage {
  /** Selections served: every `build()` (a connection, or a request minted per request). */
  selections: number;
  /** Blueprint lookups answered from the cache (a miss counts in `HostStats.blueprints`). */
  blueprintHits: number;
}
