import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCodes, isReactorError, type ReactorError } from '../kernel/errors.js';
import { assertValidPrompt, assertValidResource, type PromptSpec, type ResourceSpec } from './resource.js';

/** What `fn` threw, asserting it was a ReactorError. */
function thrown(fn: () => unknown): ReactorError {
  try {
    fn();
  } catch (error) {
    if (isReactorError(error)) return error;
    throw new Error(`expected a ReactorError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a ReactorError, nothing was thrown');
}

const read: ResourceSpec['read'] = (uri) => ({ contents: [{ uri: uri.href, text: 'hello' }] });
const get: PromptSpec['get'] = () => ({ messages: [] });

describe('assertValidResource', () => {
  it.each<[string, ResourceSpec]>([
    ['a fixed uri', { name: 'readme', uri: 'spaces://sample/README.md', read }],
    ['an RFC 6570 template', { name: 'file', template: 'spaces://{space}/{+path}', read }],
    [
      'a template with list, completions, subscriptions and the optional texts',
      {
        name: 'file',
        template: 'spaces://{space}/{+path}',
        title: 'A file',
        description: 'A file of a space.',
        mimeType: 'text/markdown',
        toolset: 'spaces',
        read,
        list: () => [{ uri: 'spaces://sample/README.md', name: 'README.md' }],
        complete: { space: (value) => ['sample', 'demo'].filter((s) => s.startsWith(value)) },
        subscribe: true,
      },
    ],
    ['an https uri', { name: 'page', uri: 'https://example.com/doc', read }],
  ])('accepts %s', (_label, spec) => {
    expect(() => assertValidResource(spec, 'spaces')).not.toThrow();
  });

  it.each([
    ['a missing name', { uri: 'spaces://a', read }, 'has no name'],
    ['an empty name', { name: '', uri: 'spaces://a', read }, 'has no name'],
    ['a name that is not a string', { name: 7, uri: 'spaces://a', read }, 'has no name'],
    ['neither uri nor template', { name: 'r', read }, 'needs exactly one of uri and template'],
    ['both uri and template', { name: 'r', uri: 'spaces://a', template: 'spaces://{a}', read }, 'needs exactly one of uri and template'],
    ['a relative uri', { name: 'r', uri: 'README.md', read }, 'has an invalid uri'],
    ['a uri that is not a string', { name: 'r', uri: 42, read }, 'has an invalid uri'],
    ['a template that is not a string', { name: 'r', template: ['spaces://{a}'], read }, 'has an invalid template'],
    // The SDK's UriTemplate throws on it when a server is minted, which would fail every server of the selection.
    ['a template that is not RFC 6570 (an unclosed expression)', { name: 'r', template: 'spaces://{space', read }, 'has an invalid template'],
    ['a missing read', { name: 'r', uri: 'spaces://a' }, 'has no read function'],
    ['a read that is not a function', { name: 'r', uri: 'spaces://a', read: 'hello' }, 'has no read function'],
    ['a list that is not a function', { name: 'r', template: 'spaces://{a}', read, list: [] }, 'has an invalid list'],
    ['null', null, 'is not a resource spec'],
  ])('rejects %s with REACTOR_RESOURCE_INVALID', (_label, spec, problem) => {
    const error = thrown(() => assertValidResource(spec as unknown as ResourceSpec, 'spaces'));
    expect(error.code).toBe(ErrorCodes.RESOURCE_INVALID);
    expect(error.message).toContain(problem);
    expect(error.extension).toBe('spaces');
  });

  it('rejects completions that are not functions', () => {
    const spec = { name: 'file', template: 'spaces://{space}', read, complete: { space: ['sample'] } } as unknown as ResourceSpec;
    expect(thrown(() => assertValidResource(spec, 'spaces')).code).toBe(ErrorCodes.RESOURCE_INVALID);
  });

  it('names the resource and the extension, and describes what it received', () => {
    const error = thrown(() => assertValidResource({ name: 'readme', uri: 'README.md', read }, 'spaces'));
    expect(error.message).toMatch(/^resource "readme" of extension "spaces": has an invalid uri; expected an absolute URI, received the string "README.md"; hint: /);
  });

  it('calls a resource without a name "(unnamed)"', () => {
    expect(thrown(() => assertValidResource({ uri: 'spaces://a', read } as unknown as ResourceSpec, 'spaces')).message).toMatch(
      /^resource \(unnamed\) of extension "spaces"/,
    );
  });
});

describe('assertValidPrompt', () => {
  it.each<[string, PromptSpec]>([
    ['a name and get', { name: 'summarise', get }],
    [
      'every optional field',
      {
        name: 'summarise',
        title: 'Summarise',
        description: 'Summarise a space.',
        argsSchema: z.object({ space: z.string() }),
        toolset: 'spaces',
        get,
        complete: { space: () => ['sample'] },
      },
    ],
    ['a raw-shape argsSchema', { name: 'summarise', argsSchema: { space: z.string() }, get }],
  ])('accepts %s', (_label, spec) => {
    expect(() => assertValidPrompt(spec, 'spaces')).not.toThrow();
  });

  it.each([
    ['a missing name', { get }, 'has no name'],
    ['an empty name', { name: '', get }, 'has no name'],
    ['a missing get', { name: 'summarise' }, 'has no get function'],
    ['a get that is not a function', { name: 'summarise', get: { messages: [] } }, 'has no get function'],
    ['a string', 'summarise', 'is not a prompt spec'],
  ])('rejects %s with REACTOR_PROMPT_INVALID', (_label, spec, problem) => {
    const error = thrown(() => assertValidPrompt(spec as unknown as PromptSpec, 'spaces'));
    expect(error.code).toBe(ErrorCodes.PROMPT_INVALID);
    expect(error.message).toContain(problem);
    expect(error.extension).toBe('spaces');
  });

  it('rejects an argsSchema that is not a schema (as a tool\'s inputSchema is)', () => {
    const spec = { name: 'summarise', argsSchema: 'space', get } as unknown as PromptSpec;
    expect(thrown(() => assertValidPrompt(spec, 'spaces')).code).toBe(ErrorCodes.PROMPT_INVALID);
  });

  it('rejects completions that are not functions', () => {
    const spec = { name: 'summarise', get, complete: { space: 'sample' } } as unknown as PromptSpec;
    expect(thrown(() => assertValidPrompt(spec, 'spaces')).code).toBe(ErrorCodes.PROMPT_INVALID);
  });

  it('names the prompt and the extension', () => {
    expect(thrown(() => assertValidPrompt({ name: 'summarise' } as unknown as PromptSpec, 'spaces')).message).toMatch(
      /^prompt "summarise" of extension "spaces": has no get function; expected a function .*, received undefined; hint: /,
    );
  });
});
