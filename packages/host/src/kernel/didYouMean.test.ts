import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearest } from './didYouMean.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions, ignoring case', () => {
    expect(editDistance('sessions', 'session')).toBe(1);
    expect(editDistance('prot', 'port')).toBe(1); // a swap of neighbours
    expect(editDistance('Spaces', 'spaces')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('nearest', () => {
  const keys = ['sessions', 'allowedHosts', 'allowedOrigins', 'path', 'port'];
  it('finds a plausible typo', () => {
    expect(nearest('session', keys)).toBe('sessions');
    expect(nearest('allowedHost', keys)).toBe('allowedHosts');
    expect(nearest('prot', keys)).toBe('port');
    expect(nearest('sandboxs', ['sandbox', 'spaces'])).toBe('sandbox');
  });

  it('offers a longer name that starts with what was typed', () => {
    expect(nearest('allowed', keys)).toBe('allowedHosts');
  });

  it('offers nothing for a name far from every candidate', () => {
    expect(nearest('database', keys)).toBeUndefined();
    expect(nearest('x', [])).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('says the suggestion, or nothing', () => {
    expect(didYouMean('session', ['sessions'])).toBe('did you mean "sessions"?');
    expect(didYouMean('zzzzzz', ['sessions'])).toBe('');
    expect(didYouMean('prot', ['--port'].map((f) => f.slice(2)), (s) => `--${s}`)).toBe('did you mean --port?');
  });
});
