import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ReactorError } from '../kernel/errors.js';
import { assertValidMiddleware, composeMiddleware, MiddlewareFailure, type Middleware, type MiddlewareCall } from './middleware.js';
import { EMPTY_SELECTION } from '../selection/selection.js';

const call: MiddlewareCall = {
  method: 'tools/call',
  name: 'get_run',
  arguments: { id: 'r1', token: 'secret' },
  selection: EMPTY_SELECTION,
  toolsets: new Set(['benchmarks']),
  tenant: undefined,
  ctx: {} as ServerContext,
};

const layer = (extension: string, middleware: Middleware, registrationIndex = 0) => ({ extension, registrationIndex, middleware });

describe('composeMiddleware', () => {
  it('is undefined when no layer wraps the method, so the request runs with no indirection', () => {
    expect(composeMiddleware([], 'tools/call')).toBeUndefined();
    expect(composeMiddleware([layer('a', { name: 'lister', methods: ['tools/list'], handle: (_c, next) => next() })], 'tools/call')).toBeUndefined();
  });

  it('runs the last applied layer first: higher order is outermost, ties by registration order', async () => {
    const seen: string[] = [];
    const trace = (name: string): Middleware['handle'] => async (_c, next) => {
      seen.push(`>${name}`);
      const result = await next();
      seen.push(`<${name}`);
      return result;
    };
    const chain = composeMiddleware(
      [layer('b', { name: 'audit', order: 10, handle: trace('audit') }, 1), layer('a', { name: 'inner', handle: trace('inner') }, 0), layer('c', { name: 'second', handle: trace('second') }, 2)],
      'tools/call',
    )!;
    const result = await chain(call, () => {
      seen.push('call');
      return Promise.resolve('done');
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['>audit', '>second', '>inner', 'call', '<inner', '<second', '<audit']);
  });

  it('lets a layer short-circuit with a result of its own (the call never runs)', async () => {
    let ran = false;
    const chain = composeMiddleware([layer('policy', { name: 'deny', handle: () => ({ isError: true, content: [{ type: 'text', text: 'denied by policy' }] }) })], 'tools/call')!;
    const result = await chain(call, () => {
      ran = true;
      return Promise.resolve('never');
    });
    expect(ran).toBe(false);
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'denied by policy' }] });
  });

  it('passes changed arguments on to the layers inside and to the call', async () => {
    const seen: unknown[] = [];
    const chain = composeMiddleware(
      [
        layer('a', { name: 'spy', handle: (c, next) => (seen.push(c.arguments), next()) }, 0),
        layer('b', { name: 'redact', order: 1, handle: (c, next) => next({ arguments: { ...c.arguments, token: '[redacted]' } }) }, 1),
      ],
      'tools/call',
    )!;
    await chain(call, (args) => (seen.push(args), Promise.resolve(undefined)));
    expect(seen).toEqual([{ id: 'r1', token: '[redacted]' }, { id: 'r1', token: '[redacted]' }]);
  });

  it('fails closed naming the middleware and its extension when a layer throws', async () => {
    const chain = composeMiddleware([layer('audit-log', { name: 'audit', handle: () => { throw new Error('disk full'); } })], 'tools/call')!;
    const failure = await chain(call, () => Promise.resolve('never')).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MiddlewareFailure);
    expect((failure as MiddlewareFailure).message).toBe('Middleware "audit" of extension "audit-log" failed, so this call is refused: disk full');
  });

  it('passes the request\'s own errors through the layers untouched (not blamed on a middleware)', async () => {
    const notFound = new Error('Resource spaces://nope not found');
    const chain = composeMiddleware([layer('a', { name: 'spy', methods: ['resources/read'], handle: (_c, next) => next() })], 'resources/read')!;
    await expect(chain({ ...call, method: 'resources/read' }, () => Promise.reject(notFound))).rejects.toBe(notFound);
  });
});

describe('assertValidMiddleware', () => {
  const noop = (): unknown => undefined;
  it('accepts a named layer with a handle function', () => {
    expect(() => assertValidMiddleware({ name: 'audit', handle: () => undefined }, 'x')).not.toThrow();
  });

  it.each([
    [null, 'is not a middleware'],
    [{ handle: noop }, 'has no name'],
    [{ name: 'audit' }, 'has no handle function'],
    [{ name: 'audit', handle: noop, order: Number.NaN }, 'has an invalid order'],
    [{ name: 'audit', handle: noop, methods: ['tools/delete'] }, 'names an unknown method'],
  ])('refuses %j: %s, naming the extension', (value, problem) => {
    let error: unknown;
    try {
      assertValidMiddleware(value, 'audit-log');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ReactorError);
    expect((error as ReactorError).code).toBe('REACTOR_CONTRIBUTION_FAILED');
    expect((error as Error).message).toContain(problem);
    expect((error as Error).message).toContain('extension "audit-log"');
  });
});
