import { describe, expect, it } from 'vitest';
import { ErrorCodes, isReactorError, type ReactorError } from '../kernel/errors.js';
import {
  assertValidManifest,
  defineExtension,
  EXTENSION_NAME_PATTERN,
  isDeferredExtension,
  isExtension,
  type DeferredExtension,
  type McpExtension,
  type PluginManifest,
} from './extension.js';

const manifest: PluginManifest = { name: 'spaces', version: '1.0.0' };

/** What validating `value` threw, asserting it was a ReactorError. */
function invalid(value: unknown, origin?: string): ReactorError {
  try {
    assertValidManifest(value, origin);
  } catch (error) {
    if (isReactorError(error)) return error;
    throw new Error(`expected a ReactorError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a ReactorError, nothing was thrown');
}

describe('defineExtension', () => {
  it('returns the very object it was given', () => {
    const definition = { manifest, tools: () => [] };
    expect(defineExtension(definition)).toBe(definition);
  });

  it('adds no enumerable property (the definition reads as written)', () => {
    const definition = defineExtension({ manifest });
    expect(Object.keys(definition)).toEqual(['manifest']);
  });

  it('accepts a frozen definition and returns it', () => {
    const frozen = Object.freeze({ manifest });
    expect(defineExtension(frozen)).toBe(frozen);
  });
});

describe('isExtension (structural, never instanceof: two copies of the host may be loaded)', () => {
  class SpacesExtension implements McpExtension {
    readonly manifest = manifest;
    tools() {
      return [];
    }
  }

  it.each([
    ['a defineExtension result', defineExtension({ manifest })],
    ['a plain object with a manifest', { manifest: { name: 'x', version: '1.0.0' } }],
    ['an instance of a class implementing the interface', new SpacesExtension()],
    ['an object with a manifest naming it, even if otherwise invalid (checked later)', { manifest: { name: 'Not Kebab' } }],
  ])('is true for %s', (_label, value) => {
    expect(isExtension(value)).toBe(true);
  });

  it.each([
    ['null', null],
    ['a string', 'spaces'],
    ['an object without a manifest', { tools: () => [] }],
    ['a manifest without a name', { manifest: { version: '1.0.0' } }],
    ['a manifest whose name is not a string', { manifest: { name: 1 } }],
    ['a class (the constructor, not an instance)', SpacesExtension],
  ])('is false for %s', (_label, value) => {
    expect(isExtension(value)).toBe(false);
  });
});

describe('isDeferredExtension', () => {
  it('is true for a deferred entry from loadExtensions', () => {
    const deferred: DeferredExtension = { kind: 'deferred', manifest, package: '@acme/spaces@1.0.0', load: () => Promise.resolve({ manifest }) };
    expect(isDeferredExtension(deferred)).toBe(true);
  });

  it('is false for an ordinary extension, or a deferred entry without load', () => {
    expect(isDeferredExtension({ manifest })).toBe(false);
    expect(isDeferredExtension({ kind: 'deferred', manifest })).toBe(false);
  });
});

describe('assertValidManifest', () => {
  it('accepts a minimal manifest: name and version', () => {
    expect(() => assertValidManifest({ name: 'spaces', version: '1.0.0' })).not.toThrow();
  });

  it('accepts a full manifest', () => {
    expect(() =>
      assertValidManifest({
        name: 'audit-log',
        version: '2.1.0-beta.3',
        description: 'Audit every call.',
        title: 'Audit log',
        activationEvents: ['onToolset:benchmarks', 'onStartup', '*'],
        deactivationEvents: ['onToolset:benchmarks'],
        dependencies: ['spaces', 'auth-core'],
        host: '^1.0.0',
        tenants: ['acme'],
      }),
    ).not.toThrow();
  });

  describe('names are kebab-case', () => {
    it.each(['spaces', 'audit-log', 'a', 'v2', 'a1-b2-c3', '0day'])('accepts %j', (name) => {
      expect(EXTENSION_NAME_PATTERN.test(name)).toBe(true);
      expect(() => assertValidManifest({ name, version: '1.0.0' })).not.toThrow();
    });

    it.each(['Spaces', 'auditLog', 'audit_log', 'audit.log', '-audit', 'audit-', 'audit--log', '', 'audit log', '@acme/spaces', 'café'])(
      'rejects %j',
      (name) => {
        const error = invalid({ name, version: '1.0.0' });
        expect(error.code).toBe(ErrorCodes.MANIFEST_INVALID);
        expect(error.message).toContain('"manifest.name"');
        expect(error.expected).toContain('kebab-case');
      },
    );
  });

  describe('version is semver', () => {
    it.each(['1.0.0', '0.0.1', '1.2.3-beta.1', '1.2.3+build.5'])('accepts %j', (version) => {
      expect(() => assertValidManifest({ name: 'spaces', version })).not.toThrow();
    });

    it.each([['1.0'], ['one'], ['latest'], [''], [1], [undefined]])('rejects %j', (version) => {
      const error = invalid({ name: 'spaces', version });
      expect(error.code).toBe(ErrorCodes.MANIFEST_INVALID);
      expect(error.message).toContain('"manifest.version"');
      expect(error.extension).toBe('spaces');
    });
  });

  describe('host is a semver range', () => {
    it.each(['^1.0.0', '>=0.1.0 <2', '1.x', '*'])('accepts %j', (host) => {
      expect(() => assertValidManifest({ ...manifest, host })).not.toThrow();
    });

    it.each([['not a range'], ['^^1'], [1]])('rejects %j', (host) => {
      const error = invalid({ ...manifest, host });
      expect(error.code).toBe(ErrorCodes.MANIFEST_INVALID);
      expect(error.message).toContain('"manifest.host"');
    });
  });

  describe('activation events', () => {
    it.each(['onToolset:benchmarks', 'onToolset:team.spaces-v2', 'onStartup', '*', 'onCommand:refresh'])('accepts %j', (event) => {
      expect(() => assertValidManifest({ ...manifest, activationEvents: [event] })).not.toThrow();
      expect(() => assertValidManifest({ ...manifest, deactivationEvents: [event] })).not.toThrow();
    });

    it.each(['', 'onToolset:', 'on toolset', 'onToolset:a b', '1event', ':benchmarks'])('rejects %j, naming its index', (event) => {
      const error = invalid({ ...manifest, activationEvents: ['onStartup', event] });
      expect(error.code).toBe(ErrorCodes.MANIFEST_INVALID);
      expect(error.message).toContain('"manifest.activationEvents.1"');
    });

    it('rejects an onToolset event naming something no toolset can be called (a comma list)', () => {
      // Toolset names cannot contain commas, so this event could never fire.
      const error = invalid({ ...manifest, activationEvents: ['onToolset:a,b'] });
      expect(error.message).toContain('"manifest.activationEvents.0"');
    });

    it('rejects events that are not an array of strings', () => {
      expect(invalid({ ...manifest, activationEvents: 'onStartup' }).message).toContain('"manifest.activationEvents"');
      expect(invalid({ ...manifest, deactivationEvents: [42] }).message).toContain('"manifest.deactivationEvents.0"');
    });
  });

  describe('dependencies are extension names', () => {
    it('accepts kebab-case names', () => {
      expect(() => assertValidManifest({ ...manifest, dependencies: ['auth', 'audit-log'] })).not.toThrow();
    });

    it.each([['Auth'], ['@acme/auth'], ['']])('rejects %j', (dependency) => {
      const error = invalid({ ...manifest, dependencies: ['auth', dependency] });
      expect(error.message).toContain('"manifest.dependencies.1"');
    });
  });

  it('rejects an empty tenant', () => {
    expect(invalid({ ...manifest, tenants: [''] }).message).toContain('"manifest.tenants.0"');
  });

  describe('the error', () => {
    it('reads: the extension, the field path, expected, received, hint', () => {
      const error = invalid({ name: 'spaces', version: 'one' });
      expect(error.message).toMatch(/^extension "spaces": manifest field "manifest\.version" is invalid; expected .*semver.*, received the string "one"; hint: /);
      expect(error.extension).toBe('spaces');
      expect(error.received).toBe('the string "one"');
    });

    it('says a required field is missing', () => {
      const error = invalid({ name: 'spaces' });
      expect(error.message).toContain('"manifest.version"');
      expect(error.received).toBe('undefined');
    });

    it('names where the manifest came from, when told', () => {
      expect(invalid({ name: 'spaces', version: 'x' }, '@acme/spaces@1.0.0').message).toMatch(/^extension "spaces" \(@acme\/spaces@1\.0\.0\): /);
    });

    it('calls an extension without a usable name "(unnamed)"', () => {
      const error = invalid({ version: '1.0.0' });
      expect(error.message).toMatch(/^extension \(unnamed\): manifest field "manifest\.name" is invalid/);
      expect(error.extension).toBeUndefined();
    });

    it('describes an invalid value without dumping it', () => {
      const error = invalid({ ...manifest, host: { secret: 'token' } });
      expect(error.received).toBe('an object');
      expect(error.message).not.toContain('token');
    });

    it.each([[null], [undefined], ['spaces'], [42]])('rejects %j as no manifest at all', (value) => {
      const error = invalid(value);
      expect(error.code).toBe(ErrorCodes.MANIFEST_INVALID);
      expect(error.message).toContain('has no manifest');
    });
  });
});
