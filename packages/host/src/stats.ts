/**
 * Counters of the host's expensive operations. They exist so tests can prove
 * structural properties — a cache hit converts no schema and resolves no
 * extension, a minted server registers no per-tool state — by counting, never
 * by timing. Not part of the public API.
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
  /** Per-tool registrations done while minting a server (shared tables make this 0). */
  toolRegistrations: number;
  /** `tools/list` results rendered (once per blueprint). */
  listRenders: number;
}

/** Process-wide counters (module state: one per copy of the host). */
export const stats: HostStats = {
  schemaConversions: 0,
  resolutions: 0,
  blueprints: 0,
  mints: 0,
  toolRegistrations: 0,
  listRenders: 0,
};

/** A snapshot of the counters, for before/after comparisons in tests. */
export function snapshotStats(): HostStats {
  return { ...stats };
}
