/**
 * File filters for search: a glob (`*.csv`, `notebooks/**\/*.ipynb`,
 * `*.{md,txt}`) or a bare extension (`csv`, `.csv`). A pattern without `/`
 * matches a file's name in any folder, as in `.gitignore`; with `/`, the whole
 * path from the space's root. Matching ignores case.
 */

/** A compiled filter: true when the file (a `/`-separated path relative to its space) passes. */
export type PathFilter = (relative: string) => boolean;

/** Compiles a glob or bare extension; blank or undefined matches everything. */
export function compileGlob(glob: string | undefined): PathFilter {
  const pattern = (glob ?? '').trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (pattern === '') return () => true;
  if (!/[*?[{/]/.test(pattern) && (pattern.startsWith('.') || !pattern.includes('.'))) {
    const ext = `.${pattern.replace(/^\.+/, '')}`.toLowerCase();
    return (relative) => relative.toLowerCase().endsWith(ext);
  }
  const regex = new RegExp(`^${globToRegex(pattern)}$`, 'i');
  if (!pattern.includes('/')) return (relative) => regex.test(relative.slice(relative.lastIndexOf('/') + 1));
  return (relative) => regex.test(relative);
}

/** The regular-expression source of a glob (without anchors). */
export function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close === -1) {
        out += '\\{';
        continue;
      }
      const alternatives = glob.slice(i + 1, close).split(',');
      out += `(?:${alternatives.map(globToRegex).join('|')})`;
      i = close;
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      const body = glob.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      out += `[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]]/g, '\\$&')}]`;
      i = close;
    } else {
      out += c.replace(/[.+^$()|\\\]]/g, '\\$&');
    }
  }
  return out;
}
