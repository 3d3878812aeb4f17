/**
 * Whether an extension was built for this host: its manifest's `host` range
 * must include this version of `@reactor/host`.
 */
import semver from 'semver';
import { ErrorCodes, ReactorError } from '../../kernel/errors.js';
import type { PluginManifest } from '../../contract/extension.js';
import { HOST_VERSION } from '../../kernel/version.js';

/** Throws `REACTOR_EXTENSION_INCOMPATIBLE` when the manifest's `host` range excludes this host. */
export function assertCompatible(manifest: PluginManifest, origin: string | undefined): void {
  if (manifest.host === undefined) return;
  if (!semver.satisfies(HOST_VERSION, manifest.host, { includePrerelease: true })) {
    throw new ReactorError(ErrorCodes.EXTENSION_INCOMPATIBLE, {
      subject: `extension "${manifest.name}"${origin ? ` (${origin})` : ''}`,
      problem: 'does not support this version of @reactor/host',
      expected: `a host in ${manifest.host}`,
      received: `@reactor/host@${HOST_VERSION}`,
      hint: 'install a version of the extension built for this host, or upgrade the host',
      extension: manifest.name,
    });
  }
}
