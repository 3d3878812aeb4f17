import { describe, expect, it } from 'vitest';
import { ErrorCodes, isReactorError, type ReactorError } from '../kernel/errors.js';
import { assertValidToolset, composeInstructions, deniedToolsets, describeToolset, TOOLSET_NAME_PATTERN, type Toolset } from './toolset.js';

/** What validating `toolset` threw, asserting it was a ReactorError. */
function invalid(toolset: unknown, extension = 'spaces'): ReactorError {
  try {
    assertValidToolset(toolset as Toolset, extension);
  } catch (error) {
    if (isReactorError(error)) return error;
    throw new Error(`expected a ReactorError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a ReactorError, nothing was thrown');
}

describe('assertValidToolset', () => {
  it('accepts a full declaration', () => {
    expect(() =>
      assertValidToolset(
        {
          name: 'spaces',
          title: 'Spaces',
          description: 'Browse spaces.',
          default: true,
          always: false,
          instructions: 'Use spaces.',
          scopes: ['spaces:read'],
        },
        'spaces',
      ),
    ).not.toThrow();
  });

  describe('names are what a URL can carry without escaping', () => {
    it.each(['spaces', 'audit-log', 'audit_log', 'team.spaces', 'acme:spaces', 'Benchmarks2', 'a'.repeat(128)])('accepts %j', (name) => {
      expect(TOOLSET_NAME_PATTERN.test(name)).toBe(true);
      expect(() => assertValidToolset({ name }, 'spaces')).not.toThrow();
    });

    it.each([
      ['a comma (the list separator)', 'a,b'],
      ['a space (counts as a comma)', 'a b'],
      ['a plus (a space in a query)', 'a+b'],
      ['an ampersand (the pair separator)', 'a&b'],
      ['an equals sign (the key/value separator)', 'a=b'],
      ['a slash (the path separator)', 'a/b'],
      ['a question mark', 'a?b'],
      ['a percent sign', 'a%20b'],
      ['non-ASCII letters', 'café'],
      ['the empty string', ''],
      ['129 characters', 'a'.repeat(129)],
    ])('rejects %s with REACTOR_TOOLSET_INVALID', (_label, name) => {
      const error = invalid({ name });
      expect(error.code).toBe(ErrorCodes.TOOLSET_INVALID);
      expect(error.message).toContain('has an invalid name');
    });

    it('names the toolset and the extension that declared it', () => {
      const error = invalid({ name: 'a,b' }, 'geo');
      expect(error.message).toMatch(/^toolset "a,b" of extension "geo": has an invalid name/);
      expect(error.extension).toBe('geo');
      expect(error.hint).toBeTruthy();
    });
  });

  it.each([
    ['a missing name', {}, 'has an invalid name'],
    ['a name that is not a string', { name: 1 }, 'has an invalid name'],
    ['a default that is not a boolean', { name: 'spaces', default: 'false' }, 'has an invalid "default"'],
    ['an always that is not a boolean', { name: 'spaces', always: 1 }, 'has an invalid "always"'],
    ['a title that is not a string', { name: 'spaces', title: ['Spaces'] }, 'has an invalid "title"'],
    ['a description that is not a string', { name: 'spaces', description: 42 }, 'has an invalid "description"'],
    ['instructions that are not a string', { name: 'spaces', instructions: { text: 'x' } }, 'has an invalid "instructions"'],
    ['scopes that are not an array', { name: 'spaces', scopes: 'spaces:read' }, 'has invalid "scopes"'],
    ['scopes that are not all strings', { name: 'spaces', scopes: ['spaces:read', 1] }, 'has invalid "scopes"'],
    ['null', null, 'is not a toolset'],
    ['a string', 'spaces', 'is not a toolset'],
  ])('rejects %s', (_label, toolset, problem) => {
    const error = invalid(toolset);
    expect(error.code).toBe(ErrorCodes.TOOLSET_INVALID);
    expect(error.message).toContain(problem);
  });
});

describe('describeToolset', () => {
  it('fills the defaults: title falls back to the name, description empty, default true, always false', () => {
    expect(describeToolset({ name: 'spaces' }, false)).toEqual({
      name: 'spaces',
      title: 'spaces',
      description: '',
      default: true,
      always: false,
      active: false,
    });
  });

  it('keeps what was declared, and says whether it is active', () => {
    expect(describeToolset({ name: 'core', title: 'Core', description: 'Always there.', default: false, always: true }, true)).toEqual({
      name: 'core',
      title: 'Core',
      description: 'Always there.',
      default: false,
      always: true,
      active: true,
    });
  });

  it('describes only the documented fields (no instructions or scopes)', () => {
    expect(Object.keys(describeToolset({ name: 's', instructions: 'x', scopes: ['a'] }, true)).sort()).toEqual(
      ['active', 'always', 'default', 'description', 'name', 'title'],
    );
  });
});

describe('composeInstructions', () => {
  const declared: Toolset[] = [
    { name: 'spaces', title: 'Spaces', instructions: 'Call list_spaces first.' },
    { name: 'benchmarks', instructions: 'Read a run with get_run.' },
    { name: 'library', title: 'Library', instructions: 'Search before you fetch.' },
    { name: 'core', title: 'Core' },
  ];

  it('puts the host\'s text first, then each active toolset\'s instructions sorted by name, under ## title, blank lines between', () => {
    expect(composeInstructions('Reactor MCP server.', declared, new Set(['spaces', 'benchmarks', 'core', 'library']))).toBe(
      [
        'Reactor MCP server.',
        '## benchmarks\n\nRead a run with get_run.',
        '## Library\n\nSearch before you fetch.',
        '## Spaces\n\nCall list_spaces first.',
      ].join('\n\n'),
    );
  });

  it('leaves inactive toolsets out: a server built without benchmarks does not say how to use them', () => {
    const text = composeInstructions('Host.', declared, new Set(['spaces']));
    expect(text).toBe('Host.\n\n## Spaces\n\nCall list_spaces first.');
    expect(text).not.toContain('get_run');
  });

  it('is the host\'s text alone when no active toolset has instructions', () => {
    expect(composeInstructions('Host.', declared, new Set(['core']))).toBe('Host.');
  });

  it('is empty when there is nothing to say', () => {
    expect(composeInstructions(undefined, declared, new Set())).toBe('');
    expect(composeInstructions('   ', declared, new Set(['core']))).toBe('');
  });

  it('starts with the first toolset section when the host has no text', () => {
    expect(composeInstructions(undefined, declared, new Set(['library']))).toBe('## Library\n\nSearch before you fetch.');
  });

  it('trims texts and skips blank instructions', () => {
    const text = composeInstructions('\n Host. \n', [{ name: 'a', instructions: '\n  Do A.  \n' }, { name: 'b', instructions: '   ' }], new Set(['a', 'b']));
    expect(text).toBe('Host.\n\n## a\n\nDo A.');
  });

  it('sorts by name, not by title or declaration order', () => {
    const text = composeInstructions(undefined, [{ name: 'zeta', title: 'A title', instructions: 'z' }, { name: 'alpha', title: 'Z title', instructions: 'a' }], new Set(['zeta', 'alpha']));
    expect(text).toBe('## Z title\n\na\n\n## A title\n\nz');
  });

  it('reads any iterable of declarations', () => {
    const text = composeInstructions(undefined, new Set<Toolset>([{ name: 'a', instructions: 'Do A.' }]).values(), new Set(['a']));
    expect(text).toBe('## a\n\nDo A.');
  });
});

describe('deniedToolsets', () => {
  const declared: Toolset[] = [{ name: 'core', always: true }, { name: 'spaces' }, { name: 'admin', scopes: ['admin'] }, { name: 'audit', default: false, scopes: ['admin', 'audit'] }];

  it('lists the toolsets a token lacks scopes for, with the scopes missing', () => {
    expect(deniedToolsets(declared, ['admin'])).toEqual(new Map([['audit', ['audit']]]));
    expect(deniedToolsets(declared, undefined).size).toBe(0);
  });
});
