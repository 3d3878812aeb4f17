/**
 * `@reactor/redis`: several Reactor MCP replicas behind one load balancer,
 * sharing resumable session streams and change events through Redis.
 */
export { connectRedis, reconnectDelay, redactedUrl } from './connect.js';
export type { ConnectRedisOptions, ReactorRedis } from './connect.js';
export { RedisEventStore, parseEventId, DEFAULT_EVENT_REPLAY_MAX, DEFAULT_EVENT_REPLAY_AGE_MS } from './eventStore.js';
export type { RedisEventStoreOptions, RedisConnection } from './eventStore.js';
export { RedisServerEventBus } from './eventBus.js';
export type { RedisServerEventBusOptions } from './eventBus.js';
export { RedisSessionRegistry, defaultNodeId } from './sessionRegistry.js';
export type { RedisSessionRegistryOptions } from './sessionRegistry.js';
export { RedisHostToggles, publishClusterToggle } from './toggles.js';
export type { ClusterToggle, NodeToggleReport } from './toggles.js';
export { connectClusterControl, readClusterStatus, parseHeartbeat, ClusterUnreachableError } from './clusterControl.js';
export type { ClusterControl, ClusterControlOptions, ClusterNode, ClusterStatus } from './clusterControl.js';
export { DEFAULT_KEY_PREFIX } from './keys.js';
export { RedisTaskStore, ownerDigest } from './taskStore.js';
export type { RedisTaskStoreOptions, RedisChannelListener } from './taskStore.js';
