/**
 * `reactor-mcp-server hash-token`: prints the SHA-256 of a token for the
 * tokens file. The token is read from stdin, never from the command line
 * (where shell history and `ps` would keep it); `--generate` makes a new one.
 */
import { randomBytes } from 'node:crypto';
import { ErrorCodes, ReactorError } from '../../kernel/errors.js';
import { hashToken } from '../../auth/staticTokens.js';

/** The usage text of `hash-token`. */
export const HASH_TOKEN_HELP = `Usage: reactor-mcp-server hash-token [--generate]

Reads a token from stdin (one trailing newline is dropped) and prints the hex
SHA-256 to put in the tokens file (--auth-tokens-file) as "sha256".
  --generate   make a new random token instead; prints the token and a tokens-file entry
`;

/** Where `hash-token` reads and writes. */
export interface HashTokenIo {
  readonly stdin: AsyncIterable<string | Buffer>;
  readonly stdout: (text: string) => void;
}

/** Runs `hash-token` with the arguments after it. Throws `REACTOR_OPTION_INVALID` on bad input. */
export async function runHashToken(args: readonly string[], io: HashTokenIo): Promise<void> {
  const unknown = args.find((a) => !['--generate', '--help', '-h'].includes(a));
  if (unknown !== undefined) throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: `argument ${JSON.stringify(unknown)} of hash-token`, problem: 'is not an option', expected: '--generate, --help or nothing', hint: 'pipe the token on stdin: reactor-mcp-server hash-token < token.txt' });
  if (args.includes('--help') || args.includes('-h')) return io.stdout(HASH_TOKEN_HELP);
  if (args.includes('--generate')) {
    const token = randomBytes(32).toString('base64url');
    io.stdout(`token:  ${token}\nentry:  ${JSON.stringify({ name: 'CHANGE-ME', sha256: hashToken(token), scopes: [] })}\n`);
    return;
  }
  let input = '';
  for await (const chunk of io.stdin) input += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  const token = input.replace(/\r?\n$/, '');
  if (token === '' || /\s/.test(token)) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: 'hash-token', problem: token === '' ? 'read no token from stdin' : 'read a token with whitespace in it', expected: 'one token on stdin', hint: 'pipe the token in: reactor-mcp-server hash-token < token.txt (or printf %s "$TOKEN" | reactor-mcp-server hash-token)' });
  }
  io.stdout(`${hashToken(token)}\n`);
}
