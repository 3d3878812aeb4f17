import { describe, expect, it } from 'vitest';
import { describeValue, errorMessage, ErrorCodes, isReactorError, ReactorError } from './errors.js';

describe('ErrorCodes', () => {
  it('are stable strings: REACTOR_ followed by the key', () => {
    for (const [key, code] of Object.entries(ErrorCodes)) {
      expect(code).toBe(`REACTOR_${key}`);
      expect(code).toMatch(/^REACTOR_[A-Z][A-Z_]*$/);
    }
  });

  it('are unique', () => {
    const codes = Object.values(ErrorCodes);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('include the codes the spec and design name', () => {
    expect(ErrorCodes).toMatchObject({
      MANIFEST_INVALID: 'REACTOR_MANIFEST_INVALID',
      EXTENSION_INCOMPATIBLE: 'REACTOR_EXTENSION_INCOMPATIBLE',
      TOOL_CONFLICT: 'REACTOR_TOOL_CONFLICT',
      TOOL_INVALID: 'REACTOR_TOOL_INVALID',
      TOOL_EXTENSION_FAILED: 'REACTOR_TOOL_EXTENSION_FAILED',
      STARTUP_FAILED: 'REACTOR_STARTUP_FAILED',
    });
  });
});

describe('ReactorError', () => {
  it('reads "subject: problem; expected …, received …; hint: …"', () => {
    const error = new ReactorError(ErrorCodes.MANIFEST_INVALID, {
      subject: 'extension "spaces" (@acme/spaces@1.0.0)',
      problem: 'manifest field "manifest.version" is invalid',
      expected: 'a semver version such as "1.0.0"',
      received: 'the string "one"',
      hint: 'see PluginManifest in the @reactor/host README',
    });
    expect(error.message).toBe(
      'extension "spaces" (@acme/spaces@1.0.0): manifest field "manifest.version" is invalid; ' +
        'expected a semver version such as "1.0.0", received the string "one"; hint: see PluginManifest in the @reactor/host README',
    );
  });

  it('leaves out the parts it was not given', () => {
    expect(new ReactorError(ErrorCodes.TOOL_FAILED, { subject: 'tool "t"', problem: 'threw' }).message).toBe('tool "t": threw');
    expect(new ReactorError(ErrorCodes.TOOL_FAILED, { subject: 'tool "t"', problem: 'threw', received: 'a function' }).message).toBe(
      'tool "t": threw; received a function',
    );
    expect(new ReactorError(ErrorCodes.TOOL_FAILED, { subject: 'tool "t"', problem: 'threw', expected: 'a string' }).message).toBe(
      'tool "t": threw; expected a string',
    );
    expect(new ReactorError(ErrorCodes.TOOL_FAILED, { subject: 'tool "t"', problem: 'threw', hint: 'fix it' }).message).toBe(
      'tool "t": threw; hint: fix it',
    );
  });

  it('carries its code and details as fields, and its cause', () => {
    const cause = new Error('underlying');
    const error = new ReactorError(ErrorCodes.START_FAILED, {
      subject: 'extension "spaces"',
      problem: 'onStart threw',
      expected: 'e',
      received: 'r',
      hint: 'h',
      extension: 'spaces',
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ReactorError');
    expect(error).toMatchObject({
      code: 'REACTOR_START_FAILED',
      subject: 'extension "spaces"',
      extension: 'spaces',
      expected: 'e',
      received: 'r',
      hint: 'h',
    });
    expect(error.cause).toBe(cause);
  });

  it('has no cause when none was given', () => {
    const error = new ReactorError(ErrorCodes.TOOL_FAILED, { subject: 's', problem: 'p' });
    expect('cause' in error).toBe(false);
    expect(error.extension).toBeUndefined();
  });
});

describe('isReactorError', () => {
  it('is true for a ReactorError', () => {
    expect(isReactorError(new ReactorError(ErrorCodes.TOOL_INVALID, { subject: 's', problem: 'p' }))).toBe(true);
  });

  it('is true for an error from a second copy of the host (the brand and a code, no shared class)', () => {
    const fromAnotherCopy = Object.assign(new Error('m'), { brand: 'reactor.error', code: 'REACTOR_TOOL_INVALID' });
    expect(isReactorError(fromAnotherCopy)).toBe(true);
    expect(isReactorError({ brand: 'reactor.error', code: 'REACTOR_TOOL_INVALID' })).toBe(true);
  });

  it.each([
    ['a plain Error', new Error('x')],
    ['an Error with a code but no brand', Object.assign(new Error('x'), { code: 'REACTOR_TOOL_INVALID' })],
    ['the brand without a code', { brand: 'reactor.error' }],
    ['the brand with a non-string code', { brand: 'reactor.error', code: 42 }],
    ['another brand', { brand: 'other.error', code: 'REACTOR_TOOL_INVALID' }],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'reactor.error'],
  ])('is false for %s', (_label, value) => {
    expect(isReactorError(value)).toBe(false);
  });
});

describe('errorMessage', () => {
  it('is the message of an Error, never its stack', () => {
    const error = new Error('boom');
    expect(errorMessage(error)).toBe('boom');
    expect(errorMessage(error)).not.toContain('at ');
  });

  it('is a thrown string itself', () => {
    expect(errorMessage('plain')).toBe('plain');
  });

  it('describes anything else thrown without dumping it', () => {
    expect(errorMessage({ secret: 'token' })).toBe('an object');
    expect(errorMessage(42)).toBe('the number 42');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});

describe('describeValue never dumps a value', () => {
  class Sandbox {
    readonly secret = 'do not print me';
  }

  it.each([
    [undefined, 'undefined'],
    [null, 'null'],
    ['abc', 'the string "abc"'],
    [42, 'the number 42'],
    [10n, 'the number 10'],
    [true, 'true'],
    [false, 'false'],
    [() => 1, 'a function'],
    [Symbol('s'), 'a symbol'],
    [[1, 2, 3], 'an array of 3'],
    [[], 'an array of 0'],
    [{ secret: 'token' }, 'an object'],
    [Object.create(null), 'an object'],
    [new Sandbox(), 'an instance of Sandbox'],
    [new Map([['k', 'v']]), 'an instance of Map'],
  ])('describes %o as %s', (value, description) => {
    expect(describeValue(value)).toBe(description);
  });

  it('shortens a long string to 40 characters', () => {
    const long = 'x'.repeat(1000);
    const described = describeValue(long);
    expect(described).toBe(`the string "${'x'.repeat(37)}..."`);
  });

  it('keeps a 40-character string whole', () => {
    expect(describeValue('y'.repeat(40))).toBe(`the string "${'y'.repeat(40)}"`);
  });

  it('describes an array by its length, not its items', () => {
    expect(describeValue(['secret-token'])).not.toContain('secret-token');
  });

  it('describes a class instance by its class name, not its fields', () => {
    expect(describeValue(new Sandbox())).not.toContain('do not print me');
  });
});
