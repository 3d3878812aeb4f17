import { describe, expect, it } from 'vitest';
import { compileFileFilter } from './fileFilter.js';

const files = ['README.md', 'data/iris.csv', 'data/raw/2024.csv', 'notes/methods.md', 'analysis.ipynb', 'notebooks/deep/x.ipynb', 'notes.txt'];
const pick = (glob: string | undefined) => files.filter(compileFileFilter(glob));

describe('compileFileFilter', () => {
  it('matches everything when blank', () => {
    expect(pick(undefined)).toEqual(files);
    expect(pick('  ')).toEqual(files);
  });

  it('takes a bare extension, with or without its dot', () => {
    expect(pick('csv')).toEqual(['data/iris.csv', 'data/raw/2024.csv']);
    expect(pick('.md')).toEqual(['README.md', 'notes/methods.md']);
  });

  it('matches a pattern without "/" against file names in any folder', () => {
    expect(pick('*.csv')).toEqual(['data/iris.csv', 'data/raw/2024.csv']);
    expect(pick('README.md')).toEqual(['README.md']);
    expect(pick('*.{md,txt}')).toEqual(['README.md', 'notes/methods.md', 'notes.txt']);
    expect(pick('notes.???')).toEqual(['notes.txt']);
  });

  it('matches a pattern with "/" against the whole path, "**" spanning folders', () => {
    expect(pick('data/*.csv')).toEqual(['data/iris.csv']);
    expect(pick('data/**/*.csv')).toEqual(['data/iris.csv', 'data/raw/2024.csv']);
    expect(pick('**/*.ipynb')).toEqual(['analysis.ipynb', 'notebooks/deep/x.ipynb']);
    expect(pick('./notes/*')).toEqual(['notes/methods.md']);
  });

  it('ignores case and supports character classes', () => {
    expect(pick('readme.MD')).toEqual(['README.md']);
    expect(pick('data/raw/[0-9]*.csv')).toEqual(['data/raw/2024.csv']);
    expect(pick('data/[!i]*.csv')).toEqual([]);
  });

  it('treats regular-expression characters literally', () => {
    expect(compileFileFilter('a+b(1).txt')('x/a+b(1).txt')).toBe(true);
    expect(compileFileFilter('a+b(1).txt')('x/aab1.txt')).toBe(false);
  });
});

describe('compileFileFilter: what the hand-written glob got wrong (issue 44)', () => {
  const more = ['README', 'Makefile', 'src/Makefile', 'a.ts', 'a.tsx', 'b.md', 'c.txt'];
  const pick2 = (glob: string) => more.filter(compileFileFilter(glob));
  it('matches a bare name without a dot as a file name', () => {
    expect(pick2('README')).toEqual(['README']);
    expect(pick2('Makefile')).toEqual(['Makefile', 'src/Makefile']);
  });
  it('compiles nested braces', () => {
    expect(pick2('*.{ts{,x},md}')).toEqual(['a.ts', 'a.tsx', 'b.md']);
  });
});
