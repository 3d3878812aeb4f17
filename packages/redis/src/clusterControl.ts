/**
 * The operator's side of cluster-wide enable/disable: reads what the
 * replicas share in Redis (the disabled set, the toggle revision, each live
 * replica's heartbeat and what it reports) and makes a toggle exactly as a
 * replica's `host.enable/disable` does ({@link publishClusterToggle}), so
 * every running replica applies it and its listen streams hear
 * list-changed. `reactor-mcp-server cluster …` runs on this.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@redis/client';
import type { RedisConnection } from './eventStore.js';
import { DEFAULT_KEY_PREFIX, disabledSetKey, nodeHeartbeatKey, toggleRevisionKey } from './keys.js';
import { redactedUrl } from './connect.js';
import { publishClusterToggle, type NodeToggleReport } from './toggles.js';

/** One live replica, as its heartbeat says. */
export interface ClusterNode {
  readonly node: string;
  /** How long its heartbeat still lasts, ms (it is refreshed every interval). */
  readonly heartbeatTtlMs: number;
  /** Its extensions and their state there; undefined when it reports none (a replica without shared toggles, or an older @reactor/redis). */
  readonly extensions: NodeToggleReport['extensions'] | undefined;
  /** The cluster revision it has applied; undefined when it reports none. */
  readonly revision: number | undefined;
}

/** The cluster's enable/disable state, and the replicas alive now. */
export interface ClusterStatus {
  readonly keyPrefix: string;
  /** Counts every enable/disable made through Redis. */
  readonly revision: number;
  /** Extensions disabled on every replica, sorted. */
  readonly disabled: readonly string[];
  /** Replicas whose heartbeat exists, by name. */
  readonly nodes: readonly ClusterNode[];
}

/** Options of {@link connectClusterControl}. */
export interface ClusterControlOptions {
  /** The replicas' `--redis-url`. */
  readonly url: string;
  /** The replicas' key prefix. Default `reactor:mcp`. */
  readonly keyPrefix?: string;
  /** How long to wait for Redis, ms. Default 5000. */
  readonly connectTimeoutMs?: number;
}

/** An operator's connection to a running cluster. */
export interface ClusterControl {
  /** The Redis URL without its password. */
  readonly where: string;
  status(): Promise<ClusterStatus>;
  /** Enables (`true`) or disables `name` on every replica; answers the new cluster revision. */
  setEnabled(name: string, enabled: boolean): Promise<number>;
  close(): Promise<void>;
}

/** Thrown when Redis cannot be reached: `url` is redacted, `cause` says why. */
export class ClusterUnreachableError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`Redis at ${url} could not be reached (${reason})`);
    this.name = 'ClusterUnreachableError';
  }
}

/** The report inside a heartbeat's value, or undefined for an old-style (a bare time) or foreign value. */
export function parseHeartbeat(raw: string | null): Partial<NodeToggleReport> {
  if (raw === null) return {};
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value !== 'object' || value === null) return {};
    const { extensions, revision } = value as { extensions?: unknown; revision?: unknown };
    const valid = Array.isArray(extensions) && extensions.every((e) => typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string' && typeof (e as { state?: unknown }).state === 'string');
    return { ...(valid ? { extensions: extensions as NodeToggleReport['extensions'] } : {}), ...(typeof revision === 'number' ? { revision } : {}) };
  } catch {
    return {};
  }
}

/** Reads the cluster's toggle state and its live replicas (SCAN over heartbeat keys; no KEYS on a busy Redis). */
export async function readClusterStatus(redis: RedisConnection, prefix: string = DEFAULT_KEY_PREFIX): Promise<ClusterStatus> {
  const [disabled, revision] = await Promise.all([redis.sMembers(disabledSetKey(prefix)), redis.get(toggleRevisionKey(prefix))]);
  const pattern = nodeHeartbeatKey(escapeGlob(prefix), '*');
  const keys: string[] = [];
  for await (const batch of redis.scanIterator({ MATCH: pattern, COUNT: 500 })) keys.push(...batch);
  const head = `${prefix}:node:`;
  const nodes: ClusterNode[] = [];
  for (const key of [...new Set(keys)].sort()) {
    const node = key.slice(head.length, -':alive'.length);
    const [raw, ttl] = await Promise.all([redis.get(key), redis.pTTL(key)]);
    if (raw === null || ttl === -2) continue; // expired between the scan and the read
    const report = parseHeartbeat(raw);
    nodes.push({ node, heartbeatTtlMs: ttl, extensions: report.extensions, revision: report.revision });
  }
  return { keyPrefix: prefix, revision: Number(revision ?? 0), disabled: [...disabled].sort(), nodes };
}

/** Escapes `*?[]\` so a prefix matches itself in a SCAN pattern. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * Connects to the cluster's Redis (bounded wait, no reconnecting: an
 * operator's command should fail fast and say so). Rejects with
 * {@link ClusterUnreachableError} when Redis does not answer.
 */
export async function connectClusterControl(options: ClusterControlOptions): Promise<ClusterControl> {
  const where = redactedUrl(options.url);
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const timeoutMs = options.connectTimeoutMs ?? 5_000;
  const client = createClient({ url: options.url, disableOfflineQueue: true, socket: { connectTimeout: timeoutMs, reconnectStrategy: false } }) as unknown as RedisConnection;
  let lastError: Error | undefined;
  client.on('error', (error: Error) => (lastError = error));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const outcome = await Promise.race([client.connect().then(() => client.ping()).then(() => 'ready' as const, (error: unknown) => error), timedOut]);
  clearTimeout(timer);
  if (outcome !== 'ready') {
    client.destroy();
    const reason = outcome === 'timeout' ? `no answer within ${timeoutMs} ms` : describe(outcome instanceof Error ? outcome : lastError);
    throw new ClusterUnreachableError(where, reason);
  }
  // One origin per operator connection: replicas apply its toggles (they skip only their own).
  const origin = `cluster-control:${randomUUID()}`;
  return {
    where,
    status: () => readClusterStatus(client, prefix),
    setEnabled: (name, enabled) => publishClusterToggle(client, prefix, { origin, name, enabled }),
    async close() {
      if (client.isReady) await client.close();
      else client.destroy();
    },
  };
}

function describe(error: Error | undefined): string {
  if (error === undefined) return 'the connection failed';
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return error.message || 'the connection failed';
  // A refused dual-stack connection is an AggregateError with an empty message and a code.
  return error.message.includes(code) ? error.message : `${code}${error.message ? `: ${error.message}` : ''}`;
}
