import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestRecordCarrier, requestRecordOf } from '../../../telemetry/requestRecord.js';
import { lazyRequest } from './lazyRequest.js';

/** Just what `lazyRequest` reads of a Node request. */
const nodeRequest = (headers: Record<string, string | string[]>, url = '/mcp?toolsets=a') => ({ headers, url }) as unknown as IncomingMessage;

describe('lazyRequest', () => {
  it('makes nothing until read, then is the Node request as a fetch Request', async () => {
    let made = 0;
    const lazy = lazyRequest(nodeRequest({ host: 'example.test:8080', 'content-type': 'application/json', 'x-many': ['a', 'b'] }), () => made++);
    expect(lazy.request).toBeInstanceOf(Request);
    expect(lazy.made).toBe(false);

    expect(lazy.request.url).toBe('http://example.test:8080/mcp?toolsets=a');
    expect(lazy.made).toBe(true);
    expect(lazy.request.method).toBe('POST');
    expect(lazy.request.headers.get('content-type')).toBe('application/json');
    expect(lazy.request.headers.get('x-many')).toBe('a, b');
    // Methods run on the real request (undici checks `this`), and it is made once.
    expect(lazy.request.clone().url).toBe(lazy.request.url);
    expect(await lazy.request.text()).toBe('');
    expect(made).toBe(1);
  });

  it('keeps what is set on it (a request record) without making the real request', () => {
    const key = Symbol('record');
    const lazy = lazyRequest(nodeRequest({ host: 'h' }));
    (lazy.request as unknown as Record<symbol, unknown>)[key] = 'kept';
    expect((lazy.request as unknown as Record<symbol, unknown>)[key]).toBe('kept');
    expect(key in lazy.request).toBe(true);
    expect(lazy.made).toBe(false);
  });

  it('carries the properties it was given from the start, as if set on it', () => {
    const record = { transport: 'tcp', traceHeaders: undefined };
    const lazy = lazyRequest(nodeRequest({ host: 'h' }), undefined, requestRecordCarrier(record));
    expect(requestRecordOf(lazy.request)).toBe(record);
    expect(lazy.made).toBe(false);
  });

  it("aborts the signal when the client goes away, whether it was read before or after", () => {
    const before = lazyRequest(nodeRequest({ host: 'h' }));
    const signal = before.request.signal;
    expect(signal.aborted).toBe(false);
    before.gone();
    expect(signal.aborted).toBe(true);

    const after = lazyRequest(nodeRequest({ host: 'h' }));
    after.gone();
    expect(after.made).toBe(false);
    expect(after.request.signal.aborted).toBe(true);
  });

  it('has no accessor of its own: one made per request kept the request alive through young-generation collections on Node 20', () => {
    const lazy = lazyRequest(nodeRequest({ host: 'h' }));
    expect(Object.getOwnPropertyDescriptor(lazy, 'made')).toBeUndefined();
    expect(Reflect.ownKeys(lazy).filter((key) => Object.getOwnPropertyDescriptor(lazy, key)?.get !== undefined)).toEqual([]);
  });

  it('takes its authority from :authority under HTTP/2, and leaves pseudo-headers out', () => {
    const lazy = lazyRequest(nodeRequest({ ':authority': 'h2.test', ':method': 'POST', accept: 'application/json' }, '/mcp'));
    expect(lazy.request.url).toBe('http://h2.test/mcp');
    expect([...lazy.request.headers.keys()]).toEqual(['accept']);
  });
});
