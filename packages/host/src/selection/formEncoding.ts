/**
 * The form encoding the selection grammar reads and writes
 * (`application/x-www-form-urlencoded`, decoded exactly once). Kept apart from
 * the grammar so the grammar reads as its rules.
 */

// `fatal: false` turns invalid bytes into U+FFFD instead of throwing;
// `ignoreBOM: true` keeps an encoded U+FEFF instead of silently dropping it when
// it happens to start a run of escapes (decoding must be exactly "once").
const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function isHexDigit(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x46) || // A-F
    (code >= 0x61 && code <= 0x66) // a-f
  );
}

/**
 * Decodes one key or value of an `application/x-www-form-urlencoded` string:
 * `+` is a space, `%XX` runs are bytes decoded as UTF-8 with invalid sequences
 * replaced by U+FFFD, and a `%` not followed by two hex digits stays literal.
 *
 * Written by hand because `decodeURIComponent` throws on `%FF` or a lone `%`,
 * and Node's `URLSearchParams` mangles some inputs. The result is never longer
 * than the input: an escape is three characters and yields at most one UTF-16
 * unit per byte.
 */
export function decodeFormComponent(raw: string): string {
  // Fast path: most keys and values are plain names.
  if (!raw.includes('%') && !raw.includes('+')) return raw;

  let out = '';
  let bytes: number[] = [];
  const flush = (): void => {
    if (bytes.length > 0) {
      out += utf8.decode(Uint8Array.from(bytes));
      bytes = [];
    }
  };

  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    // charCodeAt past the end is NaN, which is not a hex digit: no bounds check needed.
    if (code === 0x25 /* % */ && isHexDigit(raw.charCodeAt(i + 1)) && isHexDigit(raw.charCodeAt(i + 2))) {
      bytes.push(Number.parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
      continue;
    }
    // Bytes only form characters with adjacent bytes: anything literal ends the run.
    flush();
    out += code === 0x2b /* + */ ? ' ' : raw[i];
  }
  flush();
  return out;
}

// `encodeURIComponent` throws on a lone surrogate, which a raw query string can
// carry. Such a character is written as is: the parser copies unescaped
// characters verbatim, so the round trip still holds.
export function encodeName(name: string): string {
  try {
    return encodeURIComponent(name);
  } catch {
    let out = '';
    for (const ch of name) {
      try {
        out += encodeURIComponent(ch);
      } catch {
        out += ch;
      }
    }
    return out;
  }
}

