/**
 * `@reactor/host/discovery`: finding the extensions an application has
 * installed, from the `reactorMcp` field of its dependencies' package.json
 * files, without importing them. The same names are exported by the package
 * root.
 */
export { loadExtensions } from './discovery.js';
export type { LoadExtensionsOptions } from './discovery.js';
export type { ReactorMcpEntry } from './reactorMcpField.js';
