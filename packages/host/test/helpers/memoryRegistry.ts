/**
 * The session registry contract, kept in memory: replicas in one process share
 * a {@link SharedState} (records, and which nodes are alive), each through its
 * own {@link MemoryRegistry} — what `@reactor/redis` implements over Redis.
 */
import type { SessionClaim, SessionOwner, SessionRecord, SessionRegistry } from '../../src/serve/http/sessions/sessionRegistry.js';

/** What the replicas share: records and which nodes are alive. */
export class SharedState {
  readonly records = new Map<string, SessionRecord>();
  readonly alive = new Set<string>();
}

/** A registry over {@link SharedState}: the contract, kept in memory. */
export class MemoryRegistry implements SessionRegistry {
  constructor(
    readonly nodeId: string,
    private readonly shared: SharedState,
  ) {
    shared.alive.add(nodeId);
  }
  record(record: SessionRecord): Promise<void> {
    this.shared.records.set(record.id, record);
    return Promise.resolve();
  }
  claim(sessionId: string, owner: SessionOwner): Promise<SessionClaim> {
    const record = this.shared.records.get(sessionId);
    if (!record || record.tenant !== owner.tenant || record.principal !== owner.principal) return Promise.resolve({ kind: 'unknown' });
    if (record.node !== this.nodeId && this.shared.alive.has(record.node)) return Promise.resolve({ kind: 'held', node: record.node, retryAfterSeconds: 2 });
    const moved = { ...record, node: this.nodeId, revision: record.revision + 1 };
    this.shared.records.set(sessionId, moved);
    return Promise.resolve({ kind: 'claimed', record: moved });
  }
  touch(): void {}
  end(sessionId: string): Promise<void> {
    this.shared.records.delete(sessionId);
    return Promise.resolve();
  }
  release(): Promise<void> {
    this.shared.alive.delete(this.nodeId);
    return Promise.resolve();
  }
}
