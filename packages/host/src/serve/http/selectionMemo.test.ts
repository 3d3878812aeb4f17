/**
 * The selection memo answers a target it saw with what it made then, and
 * never keeps what a header decides, a long target, or more than it may.
 */
import { describe, expect, it } from 'vitest';
import { requestSelection, type SelectionSources } from './requestSelection.js';
import { SelectionMemo } from './selectionMemo.js';

const sources = (query: string, tail = '', more: Partial<SelectionSources> = {}): SelectionSources => ({ query, tail, headers: [], filterHeaders: undefined, ...more });

function counted() {
  let made = 0;
  const memo = new SelectionMemo((s) => {
    made++;
    return requestSelection(s);
  });
  return { memo, made: () => made };
}

describe('SelectionMemo', () => {
  it('parses a target once: the same selection object for the same query and path tail', () => {
    const { memo, made } = counted();
    const first = memo.of(sources('toolsets=a,b'));
    expect(memo.of(sources('toolsets=a,b'))).toBe(first);
    expect([...first.named]).toEqual(['a', 'b']);
    expect(memo.of(sources('', 'only=a'))).not.toBe(first);
    expect(made()).toBe(2);
  });

  it('makes what the bare endpoint selects once, and keeps it however many other targets come and go', () => {
    const { memo, made } = counted();
    const bare = memo.of(sources(''));
    expect(bare.isEmpty).toBe(true);
    for (let i = 0; i < 300; i++) memo.of(sources(`toolsets=t${i}`));
    expect(memo.of(sources(''))).toBe(bare);
    expect(made()).toBe(301);
  });

  it('keeps a query and a tail apart, whatever they hold', () => {
    const { memo } = counted();
    const a = memo.of(sources('toolsets=a', 'b'));
    const b = memo.of(sources('toolsets=ab', ''));
    expect(a).not.toBe(b);
    expect([...b.named]).toEqual(['ab']);
  });

  it('parses every time what a header decides, and a long target', () => {
    const { memo, made } = counted();
    memo.of(sources('', '', { headers: ['a'] }));
    memo.of(sources('', '', { headers: ['a'] }));
    memo.of(sources('', '', { filterHeaders: { 'mcp-tools': ['x'] } }));
    memo.of(sources('', '', { filterHeaders: { 'mcp-tools': ['x'] } }));
    const long = `toolsets=${'a'.repeat(300)}`;
    memo.of(sources(long));
    memo.of(sources(long));
    expect(made()).toBe(6);
    expect(memo.size).toBe(0);
  });

  it('stays bounded: a client inventing a query per request empties it, never grows it past its limit', () => {
    const { memo } = counted();
    let largest = 0;
    for (let i = 0; i < 2000; i++) {
      memo.of(sources(`toolsets=t${i}`));
      largest = Math.max(largest, memo.size);
    }
    expect(largest).toBe(256);
    expect(memo.size).toBeLessThanOrEqual(256);
  });
});
