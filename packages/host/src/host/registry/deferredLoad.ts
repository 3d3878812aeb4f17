/**
 * Importing a deferred extension (an entry from `loadExtensions`) when it
 * wakes, and checking that the module declares what its package.json's
 * `reactorMcp` field promised (name, activation events, toolsets).
 */
import { describeValue, ErrorCodes, errorMessage, ReactorError } from '../../kernel/errors.js';
import { isExtension, type DeferredExtension, type McpExtension } from '../../contract/extension.js';
import type { ExtensionRecord } from './extensionRecord.js';
import type { Toolset } from '../../contract/toolset.js';

/** Imports a held record's module and checks it against its declaration. */
export async function loadDeferred(record: ExtensionRecord): Promise<McpExtension> {
  const source = record.source as DeferredExtension;
  let instance: McpExtension;
  try {
    instance = await source.load();
  } catch (error) {
    throw new ReactorError(ErrorCodes.LOAD_FAILED, {
      subject: `extension "${record.name}" (${source.package})`,
      problem: `could not be imported (${errorMessage(error)})`,
      hint: 'check that the package is built and its reactorMcp "module" path exists',
      extension: record.name,
      cause: error,
    });
  }
  if (!isExtension(instance)) {
    throw new ReactorError(ErrorCodes.LOAD_FAILED, {
      subject: `extension "${record.name}" (${source.package})`,
      problem: 'its module did not export an extension',
      expected: 'an extension object, a class or a factory',
      received: describeValue(instance),
      extension: record.name,
    });
  }
  assertMatchesDeclaration(record, instance, source);
  return instance;
}

function assertMatchesDeclaration(record: ExtensionRecord, instance: McpExtension, source: DeferredExtension): void {
  const mismatch = (what: string, expected: string, received: string): never => {
    throw new ReactorError(ErrorCodes.DECLARATION_MISMATCH, {
      subject: `extension "${record.name}" (${source.package})`,
      problem: `its module's ${what} differs from the reactorMcp field of its package.json`,
      expected,
      received,
      hint: 'make package.json "reactorMcp" and the exported extension declare the same name, activationEvents and toolsets',
      extension: record.name,
    });
  };
  if (instance.manifest.name !== record.name) mismatch('manifest.name', JSON.stringify(record.name), JSON.stringify(instance.manifest.name));
  // No activationEvents on either side means "none": the two must agree either way.
  const events = (list: readonly string[] | undefined) => `[${[...(list ?? [])].sort().join(',')}]`;
  if (events(instance.manifest.activationEvents) !== events(record.manifest.activationEvents)) {
    mismatch('activationEvents', events(record.manifest.activationEvents), events(instance.manifest.activationEvents));
  }
  // What activation depends on must agree too: a module cannot turn a listed opt-in toolset into an always-on one.
  if (source.toolsets !== undefined) {
    const shape = (toolsets: readonly Toolset[]) =>
      `[${toolsets.map((t) => `${t.name}(default ${String(t.default ?? true)}, always ${String(t.always ?? false)}${t.scopes ? `, scopes ${[...t.scopes].sort().join(' ')}` : ''})`).sort().join(', ')}]`;
    const own = typeof instance.toolsets === 'function' ? instance.toolsets() : [{ name: record.name }];
    if (shape(own) !== shape(source.toolsets)) mismatch('toolsets', shape(source.toolsets), shape(own));
  }
}
