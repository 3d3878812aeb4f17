/**
 * A fast-path `tools/call`'s request signal: what the SDK's dispatch and the
 * host read of an `AbortSignal`, without making one.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { DeferredAbortSignal, withRealSignal } from '../../../host/build/callSignal.js';
import { abortControllersOf } from '../../../host/mint/sdkInternals.js';
import { DeferringControllers } from './deferredAbort.js';
import { requestDelivery } from './sharedExchange.js';

describe('DeferredAbortSignal', () => {
  it('aborts once, calling each abort listener once in order, with the reason — an AbortError when none is given', () => {
    const signal = new DeferredAbortSignal();
    const seen: string[] = [];
    const first = vi.fn(() => seen.push('first'));
    signal.addEventListener('abort', first);
    signal.addEventListener('abort', first);
    signal.addEventListener('abort', { handleEvent: (event: Event) => seen.push(`object ${event.type}`) });
    signal.addEventListener('other', () => seen.push('other'));
    expect(signal.aborted).toBe(false);
    expect(() => signal.throwIfAborted()).not.toThrow();

    signal.abort(undefined);
    signal.abort('again');
    expect(seen).toEqual(['first', 'object abort']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect((signal.reason as DOMException).name).toBe('AbortError');
    expect(() => signal.throwIfAborted()).toThrow(signal.reason);
    // Added after the abort: never called, as on an AbortSignal.
    const late = vi.fn();
    signal.addEventListener('abort', late);
    expect(late).not.toHaveBeenCalled();
  });

  it('forgets a removed listener', () => {
    const signal = new DeferredAbortSignal();
    const gone = vi.fn();
    const kept = vi.fn();
    signal.addEventListener('abort', gone);
    signal.addEventListener('abort', kept);
    signal.removeEventListener('abort', gone);
    const reason = new Error('cancelled');
    signal.abort(reason);
    expect(gone).not.toHaveBeenCalled();
    expect(kept).toHaveBeenCalledTimes(1);
    expect(signal.reason).toBe(reason);
  });
});

describe('DeferringControllers', () => {
  it('gives the next controller registered after arm() a deferred signal its abort() aborts, and leaves the others alone', () => {
    const controllers = new DeferringControllers();
    const plain = new AbortController();
    controllers.set(1, plain);
    expect(plain.signal).toBeInstanceOf(AbortSignal);

    controllers.arm();
    const deferred = new AbortController();
    controllers.set(2, deferred);
    const after = new AbortController();
    controllers.set(3, after);
    controllers.disarm();

    expect(deferred.signal).toBeInstanceOf(DeferredAbortSignal);
    expect(after.signal).toBeInstanceOf(AbortSignal);
    expect(controllers.get(2)).toBe(deferred);
    const reason = new Error('client gone');
    controllers.get(2)?.abort(reason);
    expect(deferred.signal.aborted).toBe(true);
    expect(deferred.signal.reason).toBe(reason);
  });

  it('is where a stock server keeps its in-flight controllers once the shared transport delivers to it', () => {
    const server = new McpServer({ name: 't', version: '1' });
    expect(requestDelivery(server)).toBeTypeOf('function');
    expect(abortControllersOf(server)).toBeInstanceOf(DeferringControllers);

    class OwnServer extends McpServer {}
    const own = new OwnServer({ name: 't', version: '1' });
    expect(requestDelivery(own)).toBeTypeOf('function');
    expect(abortControllersOf(own)).not.toBeInstanceOf(DeferringControllers);
  });
});

describe('withRealSignal', () => {
  it('leaves a context with a real signal as it is, and gives one with a deferred signal a copy whose signal is real and follows it', () => {
    const real = { sessionId: undefined, mcpReq: { id: 1, signal: new AbortController().signal } };
    expect(withRealSignal(real)).toBe(real);

    const deferred = new DeferredAbortSignal();
    const ctx = { sessionId: 's', mcpReq: { id: 2, method: 'tools/call', signal: deferred as unknown as AbortSignal } };
    const copy = withRealSignal(ctx);
    expect(copy).not.toBe(ctx);
    expect(Object.keys(copy)).toEqual(Object.keys(ctx));
    expect(Object.keys(copy.mcpReq)).toEqual(Object.keys(ctx.mcpReq));
    expect(copy.mcpReq.id).toBe(2);
    const signal = copy.mcpReq.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(copy.mcpReq.signal).toBe(signal);
    const reason = new Error('cancelled');
    deferred.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    // Read only after the abort: made aborted.
    const late = withRealSignal(ctx).mcpReq.signal;
    expect(late.aborted).toBe(true);
    expect(late.reason).toBe(reason);
  });
});
