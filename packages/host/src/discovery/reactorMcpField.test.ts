import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../kernel/errors.js';
import { formatPath, parseReactorMcpField } from './reactorMcpField.js';

const pkg = '@acme/ext@1.0.0';

function errorOf(value: unknown, name: string) {
  const found = parseReactorMcpField(value, pkg).find((e) => e.name === name);
  if (found?.error === undefined) throw new Error(`expected an error for ${name}`);
  return found.error;
}

describe('the reactorMcp field of package.json', () => {
  it('reads the full form, with toolsets and activation events', () => {
    const [entry] = parseReactorMcpField({
      extensions: {
        benchmarks: {
          module: './dist/benchmarks.js',
          export: 'benchmarks',
          activationEvents: ['onToolset:benchmarks'],
          toolsets: [{ name: 'benchmarks', description: 'Read what a benchmark run did.', default: false }],
          dependencies: ['spaces'],
          tenants: ['acme'],
          description: 'Benchmarks.',
        },
      },
    }, pkg);
    expect(entry).toEqual({
      name: 'benchmarks',
      entry: {
        module: './dist/benchmarks.js',
        export: 'benchmarks',
        activationEvents: ['onToolset:benchmarks'],
        toolsets: [{ name: 'benchmarks', description: 'Read what a benchmark run did.', default: false }],
        dependencies: ['spaces'],
        tenants: ['acme'],
        description: 'Benchmarks.',
      },
    });
  });

  it('reads the short form "<name>": "<module>" as { module }', () => {
    expect(parseReactorMcpField({ extensions: { spaces: './dist/spaces.js' } }, pkg)).toEqual([{ name: 'spaces', entry: { module: './dist/spaces.js' } }]);
  });

  it('returns the entries sorted by extension name', () => {
    const names = parseReactorMcpField({ extensions: { zeta: './z.js', alpha: './a.js', mid: './m.js' } }, pkg).map((e) => e.name);
    expect(names).toEqual(['alpha', 'mid', 'zeta']);
  });

  it('gives an invalid entry its own error, with its path inside the field, leaving the others valid', () => {
    const entries = parseReactorMcpField({ extensions: { good: './good.js', benchmarks: { module: 42 } } }, pkg);
    expect(entries.find((e) => e.name === 'good')?.entry).toEqual({ module: './good.js' });
    const error = entries.find((e) => e.name === 'benchmarks')?.error;
    expect(error?.code).toBe(ErrorCodes.PACKAGE_INVALID);
    expect(error?.extension).toBe('benchmarks');
    expect(error?.message).toContain('reactorMcp.extensions.benchmarks.module');
    expect(error?.message).toContain('@acme/ext@1.0.0');
    expect(error?.received).toBe('the number 42');
  });

  it('names the failing toolset field by index', () => {
    const error = errorOf({ extensions: { b: { module: './b.js', toolsets: [{ name: 'ok' }, { name: 'has space' }] } } }, 'b');
    expect(error.message).toContain('reactorMcp.extensions.b.toolsets.1.name');
  });

  it('refuses an unknown key, since a typo such as activationEvent would otherwise import a held extension at start-up', () => {
    const error = errorOf({ extensions: { b: { module: './b.js', activationEvent: ['onToolset:b'] } } }, 'b');
    expect(error.message).toContain('unknown key "reactorMcp.extensions.b.activationEvent"');
    expect(error.expected).toContain('activationEvents');
  });

  it('refuses an activation event that is not an event', () => {
    expect(errorOf({ extensions: { b: { module: './b.js', activationEvents: ['on toolset b'] } } }, 'b').message).toContain('reactorMcp.extensions.b.activationEvents.0');
  });

  it('refuses a module path that is absolute, a URL, or leaves the package', () => {
    for (const module of ['/etc/passwd.js', '../other/x.js', './dist/../../x.js', 'file:///x.js', '', '.']) {
      expect(errorOf({ extensions: { b: module } }, 'b').message, module).toContain('reactorMcp.extensions.b');
    }
    expect(parseReactorMcpField({ extensions: { b: 'dist/x.js' } }, pkg)[0]?.entry).toEqual({ module: 'dist/x.js' });
  });

  it('refuses an extension name that is not kebab-case', () => {
    const error = errorOf({ extensions: { Bench_Marks: './b.js' } }, 'Bench_Marks');
    expect(error.expected).toContain('kebab-case');
  });

  it('throws for a field that is malformed as a whole, naming the package', () => {
    for (const value of ['./dist/x.js', [], { extension: {} }, { extensions: [] }]) {
      expect(() => parseReactorMcpField(value, pkg)).toThrow(expect.objectContaining({ code: ErrorCodes.PACKAGE_INVALID, message: expect.stringContaining('package @acme/ext@1.0.0') }));
    }
    expect(() => parseReactorMcpField({ extensions: {} }, pkg)).toThrow(/declares no extension/);
  });
});

describe('formatPath', () => {
  it('joins plain keys with dots and quotes the others', () => {
    expect(formatPath(['reactorMcp', 'extensions', 'b', '0'])).toBe('reactorMcp.extensions.b.0');
    expect(formatPath(['peerDependencies', '@reactor/host'])).toBe('peerDependencies["@reactor/host"]');
  });
});
