/**
 * `host.enable(name)` / `host.disable(name)` on one replica, applied on every
 * replica. The cluster's state is a Redis set of disabled extensions and a
 * revision counter, changed in one transaction with the publish that tells
 * the other replicas; each replica reads the set at boot and again after its
 * subscriber reconnects (pub/sub is at-most-once), so a replica that missed a
 * message, or started later, still converges.
 */
import { randomUUID } from 'node:crypto';
import type { Logger, McpHost } from '@reactor/host';
import type { RedisServerEventBus } from './eventBus.js';
import type { RedisConnection } from './eventStore.js';
import { disabledSetKey, togglesChannel, toggleRevisionKey } from './keys.js';

/** One toggle on the channel. */
interface ToggleMessage {
  readonly origin: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly revision: number;
}

/** A toggle to make cluster-wide; `origin` names who makes it (a replica ignores its own coming back). */
export interface ClusterToggle {
  readonly origin: string;
  readonly name: string;
  readonly enabled: boolean;
}

/**
 * Writes one toggle the way every replica reads it: the disabled set and the
 * revision change in one transaction, then the change is published so every
 * replica applies it now (a replica that misses the message reads the set
 * after its next reconnect). Answers the cluster's new revision. Used by the
 * replicas and by the operator's `reactor-mcp-server cluster` command alike.
 */
export async function publishClusterToggle(redis: RedisConnection, prefix: string, toggle: ClusterToggle): Promise<number> {
  const transaction = redis.multi();
  if (toggle.enabled) transaction.sRem(disabledSetKey(prefix), toggle.name);
  else transaction.sAdd(disabledSetKey(prefix), toggle.name);
  const [, revision] = await transaction.incr(toggleRevisionKey(prefix)).exec();
  const message: ToggleMessage = { ...toggle, revision: Number(revision) };
  await redis.publish(togglesChannel(prefix), JSON.stringify(message));
  return message.revision;
}

/** What a replica reports about its extensions in its heartbeat (read by `cluster status`). */
export interface NodeToggleReport {
  /** Every extension of the replica's host, and its state there. */
  readonly extensions: ReadonlyArray<{ readonly name: string; readonly state: string }>;
  /** The cluster's toggle revision as this replica last saw it. */
  readonly revision: number;
}

function parseToggle(raw: string): ToggleMessage | undefined {
  try {
    const value = JSON.parse(raw) as Partial<ToggleMessage> | null;
    if (typeof value !== 'object' || value === null || typeof value.origin !== 'string' || typeof value.name !== 'string' || typeof value.enabled !== 'boolean' || typeof value.revision !== 'number') return undefined;
    return value as ToggleMessage;
  } catch {
    return undefined;
  }
}

/** Keeps one host's enable/disable state in step with the cluster's; see {@link shareHostToggles}. */
export class RedisHostToggles {
  private readonly origin = randomUUID();
  /** Toggles this replica is applying because another one made them: not published again. */
  private readonly applying = new Set<string>();
  /** Extensions disabled here because the cluster said so (enabled again when the cluster stops saying so). */
  private readonly disabledByCluster = new Set<string>();
  private stopWatching: (() => void) | undefined;
  private _revision = 0;

  constructor(
    private readonly host: McpHost,
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    private readonly logger: Logger,
    /** Told this replica's extensions and revision whenever they change (`connectRedis` puts them in the heartbeat). */
    private readonly report?: (report: NodeToggleReport) => void,
  ) {}

  /** The cluster's toggle revision as last seen here (`/healthz` shows it). */
  get revision(): number {
    return this._revision;
  }

  /** Applies the cluster's state, then publishes this host's toggles and applies the others'. */
  async start(bus: RedisServerEventBus): Promise<void> {
    this.stopWatching = this.host.onChange((change) => {
      if (change.kind !== 'toggled') return;
      this.announce();
      const key = `${change.name}:${String(change.enabled)}`;
      if (this.applying.delete(key)) return;
      this.disabledByCluster.delete(change.name);
      void this.publish(change.name, change.enabled);
    });
    await bus.listen(togglesChannel(this.prefix), (raw) => void this.receive(raw), () => void this.resync());
    await this.resync();
  }

  stop(): void {
    this.stopWatching?.();
    this.stopWatching = undefined;
  }

  /** Tells the heartbeat this replica's extensions and the revision it has seen. */
  private announce(): void {
    this.report?.({ extensions: this.host.report().extensions.map((e) => ({ name: e.name, state: e.state })), revision: this._revision });
  }

  private async publish(name: string, enabled: boolean): Promise<void> {
    try {
      this._revision = await publishClusterToggle(this.redis, this.prefix, { origin: this.origin, name, enabled });
      this.announce();
    } catch (error) {
      this.logger.warn({ extension: name }, `sharing "${enabled ? 'enable' : 'disable'} ${name}" with the other replicas failed (${error instanceof Error ? error.message : String(error)}); it holds on this replica only`);
    }
  }

  private async receive(raw: string): Promise<void> {
    const message = parseToggle(raw);
    if (!message || message.origin === this.origin) return;
    this._revision = Math.max(this._revision, message.revision);
    await this.apply(message.name, message.enabled);
    this.announce();
  }

  /** Reads the cluster's disabled set and applies it: at boot, and after a reconnect. */
  private async resync(): Promise<void> {
    try {
      const [disabled, revision] = await Promise.all([this.redis.sMembers(disabledSetKey(this.prefix)), this.redis.get(toggleRevisionKey(this.prefix))]);
      this._revision = Number(revision ?? 0);
      const wanted = new Set(disabled);
      for (const name of wanted) await this.apply(name, false);
      for (const name of [...this.disabledByCluster]) if (!wanted.has(name)) await this.apply(name, true);
      this.announce();
    } catch (error) {
      this.logger.warn({}, `reading the cluster's disabled extensions failed (${error instanceof Error ? error.message : String(error)}); retried after the next reconnect`);
    }
  }

  private async apply(name: string, enabled: boolean): Promise<void> {
    const known = this.host.report().extensions.find((e) => e.name === name);
    if (!known) {
      this.logger.debug({ extension: name }, `the cluster toggled "${name}", which this replica does not have`);
      return;
    }
    if ((known.state === 'disabled') === !enabled) {
      if (!enabled) this.disabledByCluster.add(name);
      return;
    }
    const key = `${name}:${String(enabled)}`;
    this.applying.add(key);
    try {
      if (enabled) await this.host.enable(name);
      else await this.host.disable(name);
      if (enabled) this.disabledByCluster.delete(name);
      else this.disabledByCluster.add(name);
      this.logger.info({ extension: name, revision: this._revision }, `${enabled ? 'enabled' : 'disabled'} "${name}" as another replica did`);
    } catch (error) {
      this.logger.warn({ extension: name }, `applying "${enabled ? 'enable' : 'disable'} ${name}" from another replica failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.applying.delete(key);
    }
  }
}
