/**
 * `search_text`'s file filter: a glob (`*.csv`, `notebooks/**\/*.ipynb`,
 * `*.{md,txt}`), matched by picomatch, or a bare name without wildcards. A
 * pattern without `/` matches a file's name in any folder, as in
 * `.gitignore`; with `/`, the whole path from the space's root. A bare word
 * without a dot (`csv`, `Makefile`) matches that extension or that file name;
 * a leading dot (`.csv`) means an extension. Matching ignores case.
 */
import picomatch from 'picomatch';

/** A compiled filter: true when the file (a `/`-separated path relative to its space) passes. */
export type FileFilter = (relative: string) => boolean;

/** Compiles a glob or bare name/extension; blank or undefined matches everything. */
export function compileFileFilter(glob: string | undefined): FileFilter {
  const pattern = (glob ?? '').trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (pattern === '') return () => true;
  // Shell habits picomatch reads otherwise: `[!a]` negates a class (picomatch wants `[^a]`), and parentheses
  // outside an extglob (`report (1).txt`) are literal.
  const shell = pattern.replace(/\[!/g, '[^');
  const literal = /[?*+@!]\(/.test(shell) ? shell : shell.replace(/[()]/g, '\\$&');
  const bare = !picomatch.scan(literal).isGlob && !pattern.includes('/');
  // `.csv` is an extension; `csv` may be one, or a whole name (`Makefile`, `README`).
  const patterns = !bare ? [literal] : literal.startsWith('.') ? [`*${literal}`, literal] : literal.includes('.') ? [literal] : [`*.${literal}`, literal];
  return picomatch(patterns, { nocase: true, basename: !pattern.includes('/'), dot: true });
}
