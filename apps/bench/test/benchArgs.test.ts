/** `pnpm bench`'s flags: what pnpm hands the script, a `--` included. */
import { describe, expect, it } from 'vitest';
import { benchArgs } from '../src/benchArgs.js';

describe("pnpm bench's flags", () => {
  it('are read as given: pnpm bench --only command', () => {
    expect(benchArgs(['--only', 'command', '--command-rounds', '9'])).toMatchObject({ only: ['command'], 'command-rounds': '9', quick: false });
  });
  it('are read after a leading `--`, which pnpm passes through: pnpm bench -- --only command', () => {
    expect(benchArgs(['--', '--only', 'command', '--quick'])).toMatchObject({ only: ['command'], quick: true });
  });
  it('refuse a stray positional argument anywhere else', () => {
    expect(() => benchArgs(['--only', 'command', '--', 'extra'])).toThrow(/positional/i);
  });
});
