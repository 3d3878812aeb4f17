/**
 * One registered extension as the registry keeps it: where it stands, what it
 * declared and contributed, and its own logger.
 */
import type { ExtensionInput, McpExtension, PluginManifest } from '../../contract/extension.js';
import type { Logger } from '../../kernel/logger.js';
import type { Contributions } from './contributions.js';
import type { Toolset } from '../../contract/toolset.js';

/** Where an extension stands. */
export type ExtensionState = 'held' | 'active' | 'failed' | 'stopped';

/** One registered extension. */
export interface ExtensionRecord {
  readonly name: string;
  /** Position in registration order (after dependency ordering). */
  index: number;
  readonly manifest: PluginManifest;
  readonly package: string | undefined;
  readonly source: ExtensionInput;
  instance: McpExtension | undefined;
  state: ExtensionState;
  disabled: boolean;
  started: boolean;
  declaredToolsets: readonly Toolset[];
  contributions: Contributions | undefined;
  wake: Promise<boolean> | undefined;
  /** Why it failed, when `state` is `failed` (for the wake's span). */
  failure?: unknown;
  readonly logger: Logger;
}

/** True for an extension that waits for an activation event before it is imported and read. */
export function isHeld(manifest: PluginManifest): boolean {
  const events = manifest.activationEvents;
  return events !== undefined && events.length > 0 && !events.includes('*') && !events.includes('onStartup');
}

/** Tenants: no list serves everyone (and untenanted builds); a list serves exactly those tenants. */
export function servesTenant(manifest: PluginManifest, tenant: string | undefined): boolean {
  if (manifest.tenants === undefined) return true;
  return tenant !== undefined && manifest.tenants.includes(tenant);
}

