import { describe, expect, it } from 'vitest';
import { EnvelopeVerdicts, sameJsonValue } from './envelopeVerdicts.js';

const KEYS = ['v', 'info', 'caps', 'level'] as const;

/** Verdicts over a classifier that counts its calls and finds an envelope valid when `v` is "ok". */
function counted() {
  const asked: Array<Record<string, unknown>> = [];
  const verdicts = new EnvelopeVerdicts(KEYS, (envelope) => {
    asked.push(envelope);
    return envelope.v === 'ok';
  });
  return { verdicts, asked };
}

const parsed = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('envelope verdicts', () => {
  it('asks the classifier once for an envelope every request repeats, whatever else `_meta` carries', () => {
    const { verdicts, asked } = counted();
    for (let i = 0; i < 5; i++) expect(verdicts.verdict(parsed(`{"v":"ok","caps":{"a":{}},"traceparent":"t${i}"}`))).toBe(true);
    expect(asked).toEqual([{ v: 'ok', caps: { a: {} } }]);
  });

  it('keeps valid and invalid envelopes apart, and finds either again', () => {
    const { verdicts, asked } = counted();
    expect(verdicts.verdict(parsed('{"v":"ok"}'))).toBe(true);
    expect(verdicts.verdict(parsed('{"v":"bad"}'))).toBe(false);
    expect(verdicts.verdict(parsed('{"v":"ok"}'))).toBe(true);
    expect(verdicts.verdict(parsed('{"v":"bad"}'))).toBe(false);
    expect(asked).toHaveLength(2);
  });

  it('tells envelopes apart by any value, however deep', () => {
    const { verdicts, asked } = counted();
    const texts = ['{"v":"ok","info":{"name":"a"}}', '{"v":"ok","info":{"name":"b"}}', '{"v":"ok","info":{"name":"a","x":[1]}}', '{"v":"ok","info":{"name":"a","x":[1,2]}}', '{"v":"ok","level":"info"}'];
    for (const text of texts) verdicts.verdict(parsed(text));
    expect(asked).toHaveLength(texts.length);
  });

  it('finds an envelope whose keys come in another order (the schema reads keys, not their order)', () => {
    const { verdicts, asked } = counted();
    verdicts.verdict(parsed('{"v":"ok","info":{"name":"a","version":"1"}}'));
    verdicts.verdict(parsed('{"info":{"version":"1","name":"a"},"v":"ok"}'));
    expect(asked).toHaveLength(1);
  });

  it('keeps its own copy: a handler changing the request’s objects changes no verdict', () => {
    const { verdicts, asked } = counted();
    const first = parsed('{"v":"ok","caps":{"sampling":{}}}');
    verdicts.verdict(first);
    (first.caps as Record<string, unknown>).sampling = 'changed';
    verdicts.verdict(parsed('{"v":"ok","caps":{"sampling":"changed"}}'));
    expect(asked).toHaveLength(2);
  });

  it('asks every time for an envelope too long to keep, as text or as values', () => {
    const { verdicts, asked } = counted();
    const long = `{"v":"ok","info":{"name":"${'n'.repeat(3000)}"}}`;
    verdicts.verdict(parsed(long));
    verdicts.verdict(parsed(long));
    expect(asked).toHaveLength(2);
  });

  it('finds an envelope no longer among the recent ones by its text, without asking', () => {
    const { verdicts, asked } = counted();
    for (let i = 0; i < 8; i++) verdicts.verdict(parsed(`{"v":"ok","info":{"name":"client ${i}"}}`));
    expect(verdicts.verdict(parsed('{"v":"ok","info":{"name":"client 0"}}'))).toBe(true);
    expect(asked).toHaveLength(8);
  });

  it('finds by value an envelope whose text has a `null` (a number too large for a double): the classifier reads values', () => {
    const { verdicts, asked } = counted();
    verdicts.verdict(parsed('{"v":"ok","caps":{"n":1e400}}'));
    verdicts.verdict(parsed('{"v":"ok","caps":{"n":1e400}}'));
    expect(asked).toHaveLength(1);
    // A real null is another value, and asked.
    verdicts.verdict(parsed('{"v":"ok","caps":{"n":null}}'));
    expect(asked).toHaveLength(2);
  });
});

describe('sameJsonValue', () => {
  it('compares JSON values', () => {
    expect(sameJsonValue(parsed('{"a":[1,{"b":"c"}],"d":null}'), parsed('{"d":null,"a":[1,{"b":"c"}]}'))).toBe(true);
    expect(sameJsonValue(parsed('{"a":[1,2]}'), parsed('{"a":[2,1]}'))).toBe(false);
    expect(sameJsonValue(parsed('{"a":1}'), parsed('{"a":1,"b":2}'))).toBe(false);
    expect(sameJsonValue(parsed('{"a":1,"b":2}'), parsed('{"a":1}'))).toBe(false);
    expect(sameJsonValue(parsed('{"a":[]}'), parsed('{"a":{}}'))).toBe(false);
    expect(sameJsonValue('1', 1)).toBe(false);
    expect(sameJsonValue(null, {})).toBe(false);
  });

  it('reads own keys only: a `__proto__` key from JSON is not the prototype', () => {
    expect(sameJsonValue(parsed('{"__proto__":{}}'), parsed('{}'))).toBe(false);
    expect(sameJsonValue(parsed('{}'), parsed('{"__proto__":{}}'))).toBe(false);
    expect(sameJsonValue(parsed('{"__proto__":{"a":1}}'), parsed('{"__proto__":{"a":1}}'))).toBe(true);
  });
});
