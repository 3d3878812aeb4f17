/**
 * Which replica holds each 2025-protocol session, in Redis, so that any
 * replica can take a session over when its holder is gone. One hash per
 * session (`node`, `revision`, the JSON `record`), expiring with the session
 * idle timeout and refreshed on use; one heartbeat key per node, refreshed on
 * a timer and deleted on shutdown. A claim is one Lua script, so two replicas
 * reaching for one session cannot both win: it moves the session only if the
 * hash still names the holder the caller saw and that holder's heartbeat is
 * gone.
 */
import { hostname } from 'node:os';
import type { Logger, SessionClaim, SessionOwner, SessionRecord, SessionRegistry } from '@reactor/host';
import type { RedisConnection } from './eventStore.js';
import { DEFAULT_KEY_PREFIX, nodeHeartbeatKey, sessionRecordKey } from './keys.js';

/** Options of {@link RedisSessionRegistry}. */
export interface RedisSessionRegistryOptions {
  /** This replica's name. Default: host name and process id (`web-7f9c-1234`). */
  readonly nodeId?: string;
  /** How long a session's record outlives its last use, ms: the session idle timeout. */
  readonly ttlMs: number;
  /** How often this node says it is alive, ms. Default 1000. */
  readonly heartbeatIntervalMs?: number;
  /** How long a heartbeat lasts, ms: a node silent this long is gone and its sessions move. Default 3 × the interval. */
  readonly heartbeatTtlMs?: number;
  /** Prefix of every key. Default `reactor:mcp`. */
  readonly keyPrefix?: string;
  readonly logger: Logger;
}

/** The default node name: unique per process on one machine, readable in logs. */
export function defaultNodeId(): string {
  return `${hostname()}-${process.pid}`;
}

/**
 * KEYS[1] the session's hash, KEYS[2] the heartbeat of the node the caller saw holding it.
 * ARGV[1] that node, ARGV[2] the claiming node, ARGV[3] the record's TTL (ms).
 * Answers `{status, detail}`: gone | moved | alive (detail: heartbeat ms left; then the heartbeat, which carries the holder's address) | claimed (detail: new revision).
 */
const CLAIM_SCRIPT = `
local node = redis.call('HGET', KEYS[1], 'node')
if not node then return {'gone', 0} end
if node ~= ARGV[1] then return {'moved', 0} end
if node ~= ARGV[2] then
  local left = redis.call('PTTL', KEYS[2])
  if left ~= -2 then return {'alive', left, redis.call('GET', KEYS[2])} end
end
redis.call('HSET', KEYS[1], 'node', ARGV[2])
local revision = redis.call('HINCRBY', KEYS[1], 'revision', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'claimed', revision}
`;

/** How many times a claim re-reads a record that moved under it before giving up. */
const CLAIM_ATTEMPTS = 3;
/** A record's TTL is refreshed at most this often per session, ms. */
const TOUCH_EVERY_MS = 1_000;

/** A `SessionRegistry` over Redis: pass it as `createMcpApp({ sessionRegistry })`. */
export class RedisSessionRegistry implements SessionRegistry {
  readonly nodeId: string;
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly heartbeatIntervalMs: number;
  private readonly heartbeatTtlMs: number;
  private readonly logger: Logger;
  private readonly touched = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private released = false;
  private releasing = false;
  /** Where other replicas reach this one (see {@link advertise}). */
  private address: string | undefined;
  private beatFailing = false;
  /** What this node tells operators in its heartbeat (see {@link announce}). */
  private announced: object = {};

  constructor(
    private readonly redis: RedisConnection,
    options: RedisSessionRegistryOptions,
  ) {
    this.nodeId = options.nodeId ?? defaultNodeId();
    this.prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.ttlMs = Math.ceil(options.ttlMs);
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 1_000;
    this.heartbeatTtlMs = options.heartbeatTtlMs ?? this.heartbeatIntervalMs * 3;
    this.logger = options.logger;
    if (!(this.ttlMs > 0) || !(this.heartbeatIntervalMs > 0) || !(this.heartbeatTtlMs > this.heartbeatIntervalMs)) {
      throw new RangeError(`@reactor/redis: RedisSessionRegistry needs ttlMs > 0 and heartbeatTtlMs > heartbeatIntervalMs > 0; received ttlMs ${options.ttlMs}, heartbeatIntervalMs ${this.heartbeatIntervalMs}, heartbeatTtlMs ${this.heartbeatTtlMs}`);
    }
  }

  /** Starts the heartbeat: the first beat is sent before this resolves (when Redis is up). */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.beat(), this.heartbeatIntervalMs);
    this.timer.unref();
    await this.beat();
  }

  /** The key of session `sessionId`'s record (for operators and tests). */
  keyOf(sessionId: string): string {
    return sessionRecordKey(this.prefix, sessionId);
  }

  /** The heartbeat key of node `nodeId` (default: this one). */
  heartbeatKey(nodeId: string = this.nodeId): string {
    return nodeHeartbeatKey(this.prefix, nodeId);
  }

  async record(record: SessionRecord): Promise<void> {
    const key = this.keyOf(record.id);
    await this.redis
      .multi()
      .hSet(key, { node: record.node, revision: String(record.revision), record: JSON.stringify(record) })
      .pExpire(key, this.ttlMs)
      .exec();
  }

  async claim(sessionId: string, owner: SessionOwner): Promise<SessionClaim> {
    const key = this.keyOf(sessionId);
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const fields = await this.redis.hGetAll(key);
      const stored = parseRecord(fields['record']);
      const holder = fields['node'];
      // Someone else's session is answered exactly like one that does not exist.
      if (!stored || holder === undefined || stored.tenant !== owner.tenant || stored.principal !== owner.principal) return { kind: 'unknown' };
      const reply = (await this.redis.eval(CLAIM_SCRIPT, { keys: [key, this.heartbeatKey(holder)], arguments: [holder, this.nodeId, String(this.ttlMs)] })) as unknown;
      const [status, detail, beat] = Array.isArray(reply) ? (reply as [unknown, unknown, unknown]) : [undefined, undefined, undefined];
      if (status === 'gone') return { kind: 'unknown' };
      if (status === 'moved') continue;
      if (status === 'alive') {
        const left = Math.max(0, Number(detail) || 0);
        const url = advertisedUrl(beat);
        return { kind: 'held', node: holder, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)), retryAfterMs: left, ...(url !== undefined ? { url } : {}) };
      }
      if (status === 'claimed') {
        this.logger.info({ session: sessionId, from: holder }, `claimed session ${sessionId} from node "${holder}", which is gone`);
        return { kind: 'claimed', record: { ...stored, node: this.nodeId, revision: Number(detail) } };
      }
      throw new Error(`@reactor/redis: the session claim script answered ${JSON.stringify(reply)}, expected [status, detail]`);
    }
    // Moving between nodes faster than we can read it: let the client retry.
    return { kind: 'held', node: 'another node', retryAfterSeconds: 1 };
  }

  touch(sessionId: string): void {
    const now = Date.now();
    if (now - (this.touched.get(sessionId) ?? 0) < TOUCH_EVERY_MS) return;
    if (this.touched.size > 10_000) this.touched.clear(); // bounded: forgetting only costs an extra PEXPIRE
    this.touched.set(sessionId, now);
    this.redis.pExpire(this.keyOf(sessionId), this.ttlMs).catch((error: unknown) => {
      this.logger.debug({ session: sessionId }, `refreshing the registry record of session ${sessionId} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async end(sessionId: string): Promise<void> {
    this.touched.delete(sessionId);
    await this.redis.del(this.keyOf(sessionId));
  }

  async release(): Promise<void> {
    // Once: the command releases on SIGTERM, then the app's close() releases again.
    if (this.releasing) return;
    this.releasing = true;
    this.stop();
    if (!this.redis.isReady) return;
    await this.redis.del(this.heartbeatKey());
    this.logger.info({ node: this.nodeId }, `node "${this.nodeId}" released its sessions: other nodes take them over on their next request`);
  }

  /**
   * Sets what this node's heartbeat carries besides the time, so an operator's
   * `cluster status` can show it (`@reactor/redis` puts the node's extensions
   * and the toggle revision it has seen here), and sends a beat at once.
   */
  announce(report: object): void {
    this.announced = report;
    void this.beat();
  }

  /**
   * Where the other replicas reach this one (`http://10.0.0.12:4040`): carried
   * in the heartbeat, so a replica that receives a request for a session held
   * here relays it here. Sends a beat at once.
   */
  advertise(url: string): void {
    this.address = url;
    void this.beat();
  }

  /** Stops the heartbeat without deleting it (it expires on its own). */
  stop(): void {
    this.released = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async beat(): Promise<void> {
    if (this.released || !this.redis.isReady) return;
    try {
      // JSON so the beat can carry the node's report; the claim script reads only its TTL.
      await this.redis.set(this.heartbeatKey(), JSON.stringify({ ...this.announced, ...(this.address !== undefined ? { url: this.address } : {}), at: Date.now() }), { expiration: { type: 'PX', value: this.heartbeatTtlMs } });
      if (this.beatFailing) this.logger.info({ node: this.nodeId }, 'the heartbeat reaches Redis again');
      this.beatFailing = false;
    } catch (error) {
      if (!this.beatFailing) this.logger.warn({ node: this.nodeId }, `the heartbeat failed (${error instanceof Error ? error.message : String(error)}); other nodes may take this node's sessions over`);
      this.beatFailing = true;
    }
  }
}

/** The `url` a heartbeat carries, if it is an http(s) URL. */
function advertisedUrl(beat: unknown): string | undefined {
  if (typeof beat !== 'string') return undefined;
  try {
    const url = (JSON.parse(beat) as { url?: unknown } | null)?.url;
    return typeof url === 'string' && /^https?:\/\//.test(url) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The stored record, or undefined when missing or not one of ours. */
function parseRecord(raw: string | undefined): SessionRecord | undefined {
  if (raw === undefined) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<SessionRecord> | null;
    if (typeof value !== 'object' || value === null || typeof value.id !== 'string' || typeof value.selection !== 'string' || !Array.isArray(value.toolsets) || typeof value.initialize !== 'object') return undefined;
    // JSON drops undefined: an absent tenant or principal is undefined again.
    return { ...value, tenant: value.tenant ?? undefined, principal: value.principal ?? undefined } as SessionRecord;
  } catch {
    return undefined;
  }
}
