import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runHashToken } from './hashToken.js';
import { hashToken } from '../../auth/staticTokens.js';

async function run(args: string[], stdin: string): Promise<string> {
  let out = '';
  await runHashToken(args, { stdin: Readable.from([stdin]), stdout: (text) => (out += text) });
  return out;
}

describe('reactor-mcp-server hash-token', () => {
  it('prints the SHA-256 of the token on stdin, without its trailing newline', async () => {
    expect(await run([], 'my-token\n')).toBe(`${hashToken('my-token')}\n`);
    expect(await run([], 'my-token')).toBe(`${hashToken('my-token')}\n`);
  });

  it('refuses empty input and arguments (a token on the command line would be kept by the shell)', async () => {
    await expect(run([], '\n')).rejects.toThrow(/read no token from stdin/);
    await expect(run(['my-token'], '')).rejects.toThrow(/argument "my-token" of hash-token: is not an option/);
  });

  it('--generate prints a new token and its entry', async () => {
    const out = await run(['--generate'], '');
    const token = /^token: +(\S+)$/m.exec(out)?.[1] ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const entry = JSON.parse(/^entry: +(.+)$/m.exec(out)?.[1] ?? '{}') as { sha256: string };
    expect(entry.sha256).toBe(hashToken(token));
  });
});
