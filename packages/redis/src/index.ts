/**
 * `@reactor/redis`: several Reactor MCP replicas behind one load balancer,
 * sharing resumable session streams and change events through Redis.
 */
export { connectRedis, reconnectDelay, redactedUrl } from './connect.js';
export type { ConnectRedisOptions, ReactorRedis } from './connect.js';
export { RedisEventStore, parseEventId } from './eventStore.js';
export type { RedisEventStoreOptions, RedisConnection } from './eventStore.js';
export { RedisServerEventBus } from './eventBus.js';
export type { RedisServerEventBusOptions } from './eventBus.js';
export { RedisSessionRegistry, defaultNodeId } from './sessionRegistry.js';
export type { RedisSessionRegistryOptions } from './sessionRegistry.js';
export { RedisHostToggles } from './toggles.js';
export { DEFAULT_KEY_PREFIX } from './keys.js';
