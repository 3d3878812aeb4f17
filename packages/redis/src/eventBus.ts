/**
 * Change events shared by every replica: a `ServerEventBus` over Redis
 * pub/sub. `publish` delivers to this process's listeners at once (so a
 * replica's own 2026 listen streams never wait on, or depend on, Redis) and
 * publishes to the other replicas, which deliver it to theirs; a replica
 * ignores its own messages coming back. Pub/sub is at-most-once: whatever was
 * published while this replica's subscriber was disconnected is lost, so
 * after a reconnect the bus tells its listeners that every list changed —
 * clients re-list and catch up.
 */
import { randomUUID } from 'node:crypto';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { Logger } from '@reactor/host';
import type { RedisConnection } from './eventStore.js';
import { changesChannel, DEFAULT_KEY_PREFIX } from './keys.js';

/** Options of {@link RedisServerEventBus.connect}. */
export interface RedisServerEventBusOptions {
  /** Where failures are logged. */
  readonly logger: Logger;
  /** Prefix of the channel. Default `reactor:mcp`. */
  readonly keyPrefix?: string;
}

/** The events that make every client re-list: sent locally after a reconnect. */
const EVERYTHING_CHANGED: readonly ServerEvent[] = [{ kind: 'tools_list_changed' }, { kind: 'prompts_list_changed' }, { kind: 'resources_list_changed' }];

const KINDS = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed', 'resource_updated']);

/** One message on the channel: the event and which bus sent it. */
interface Envelope {
  readonly origin: string;
  readonly event: ServerEvent;
}

/** The envelope in `raw`, or undefined for anything else (another program on the channel, a newer format). */
export function parseEnvelope(raw: string): Envelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { origin, event } = value as { origin?: unknown; event?: unknown };
  if (typeof origin !== 'string' || typeof event !== 'object' || event === null) return undefined;
  const kind = (event as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !KINDS.has(kind)) return undefined;
  if (kind === 'resource_updated' && typeof (event as { uri?: unknown }).uri !== 'string') return undefined;
  return { origin, event: event as ServerEvent };
}

/**
 * A `ServerEventBus` over Redis pub/sub, with one subscriber connection of
 * its own (a duplicate of the given client). Pass it as `createMcpApp({ bus })`.
 */
export class RedisServerEventBus implements ServerEventBus {
  private readonly listeners = new Set<(event: ServerEvent) => void>();
  /** Listeners for other replicas' events only (see {@link subscribeRemote}). */
  private readonly remoteListeners = new Set<(event: ServerEvent) => void>();
  /** Tells this bus's messages from other replicas'. */
  private readonly origin = randomUUID();
  private subscriberDown = false;
  private readonly reconnectHooks = new Set<() => void>();

  private constructor(
    private readonly publisher: RedisConnection,
    private readonly subscriber: RedisConnection,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {}

  /** Opens the subscriber connection (a duplicate of `publisher`) and subscribes. */
  static async connect(publisher: RedisConnection, options: RedisServerEventBusOptions): Promise<RedisServerEventBus> {
    // The subscriber queues its SUBSCRIBE while Redis is down, and node-redis re-subscribes after every reconnect.
    const subscriber = publisher.duplicate({ disableOfflineQueue: false }) as RedisConnection;
    const bus = new RedisServerEventBus(publisher, subscriber, changesChannel(options.keyPrefix ?? DEFAULT_KEY_PREFIX), options.logger);
    subscriber.on('error', (error: Error) => bus.onSubscriberError(error));
    subscriber.on('ready', () => bus.onSubscriberReady());
    // connect() retries until Redis answers (it settles only then, or when closed): wait only when Redis is up now.
    const subscribed = subscriber.connect().then(() => subscriber.subscribe(bus.channel, (message) => bus.receive(message)));
    if (publisher.isReady) await subscribed;
    else subscribed.catch((error: unknown) => bus.logger.debug({}, `the Redis subscriber stopped before subscribing: ${error instanceof Error ? error.message : String(error)}`));
    return bus;
  }

  /** True while the subscriber connection is up (changes from other replicas arrive). */
  get connected(): boolean {
    return this.subscriber.isReady && this.publisher.isReady;
  }

  publish(event: ServerEvent): void {
    this.deliver(event);
    if (!this.publisher.isReady) {
      this.logger.warn({ event: event.kind }, `Redis is unreachable: a ${event.kind} event reached only this replica's listeners`);
      return;
    }
    const envelope: Envelope = { origin: this.origin, event };
    this.publisher.publish(this.channel, JSON.stringify(envelope)).catch((error: unknown) => {
      this.logger.warn({ event: event.kind }, `publishing a ${event.kind} event to Redis failed (${error instanceof Error ? error.message : String(error)}); other replicas miss it`);
    });
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    // A wrapper per registration, so one listener registered twice is two registrations.
    const entry = (event: ServerEvent) => listener(event);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /**
   * Registers a listener for the events other replicas published (never this
   * replica's own): the HTTP app passes their resource updates on to its
   * subscribed 2025 sessions, which `publish` alone would not reach.
   */
  subscribeRemote(listener: (event: ServerEvent) => void): () => void {
    const entry = (event: ServerEvent) => listener(event);
    this.remoteListeners.add(entry);
    return () => {
      this.remoteListeners.delete(entry);
    };
  }

  /**
   * Hears `channel` on this bus's subscriber connection (one per process), so
   * other shared state needs no connection of its own; `onReconnect` runs
   * after the subscriber reconnects (messages meanwhile were lost).
   */
  async listen(channel: string, onMessage: (message: string) => void, onReconnect: () => void): Promise<void> {
    this.reconnectHooks.add(onReconnect);
    if (this.subscriber.isReady) await this.subscriber.subscribe(channel, onMessage);
    else {
      // node-redis re-subscribes after every reconnect; queued until the first connect.
      this.subscriber.subscribe(channel, onMessage).catch((error: unknown) => this.logger.debug({ channel }, `subscribing to ${channel} stopped: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  /** Closes the subscriber connection (the publisher is the caller's). */
  async close(): Promise<void> {
    this.listeners.clear();
    this.remoteListeners.clear();
    if (this.subscriber.isReady) await this.subscriber.close();
    else this.subscriber.destroy();
  }

  private receive(raw: string): void {
    const envelope = parseEnvelope(raw);
    if (!envelope) {
      this.logger.debug({ channel: this.channel }, 'ignored a message on the changes channel that is not a change event');
      return;
    }
    if (envelope.origin === this.origin) return;
    this.deliver(envelope.event);
    this.deliver(envelope.event, this.remoteListeners);
  }

  private deliver(event: ServerEvent, listeners = this.listeners): void {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error({ err: error instanceof Error ? error : undefined }, `a listen-stream listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private onSubscriberError(error: Error): void {
    if (!this.subscriberDown) this.logger.warn({ err: error }, `the Redis subscriber connection failed (${error.message}); reconnecting — change events from other replicas are missed meanwhile`);
    this.subscriberDown = true;
  }

  private onSubscriberReady(): void {
    if (!this.subscriberDown) return;
    this.subscriberDown = false;
    this.logger.info({}, 'the Redis subscriber reconnected; telling local listeners every list changed, since events published meanwhile were lost');
    for (const event of EVERYTHING_CHANGED) this.deliver(event);
    for (const hook of this.reconnectHooks) hook();
  }
}
