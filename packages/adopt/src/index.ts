/**
 * `@reactor/adopt`: existing MCP servers as Reactor extensions — SDK-written
 * modules by recording or snapshot, any stdio or Streamable HTTP server by proxy.
 */
export { adoptServer, watchingArgv } from './adoptServer.js';
export type { AdoptableServer } from './adoptServer.js';
export { ADOPTED_META_KEY } from './adopted.js';
export type { AdoptedExtension, AdoptionReport, AdoptionKind } from './adopted.js';
export type { AdoptOptions, AdoptedToolInfo, NamePattern } from './options.js';
export type { AdoptionNote } from './recording.js';
export { AdoptError, AdoptErrorCodes } from './errors.js';
export type { AdoptErrorCode, AdoptErrorDetails } from './errors.js';
export { adoptProcess, adoptRemote } from './proxy/adoptProxy.js';
export type { AdoptProcessOptions, AdoptRemoteOptions, ProxyOptions, AdoptedProxy } from './proxy/adoptProxy.js';
export type { RestartOptions, UpstreamStatus } from './proxy/upstream.js';
export { adoptFromEntry } from './fromEntry.js';
export type { AdoptEntry } from './fromEntry.js';
