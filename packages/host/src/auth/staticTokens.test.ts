import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../kernel/errors.js';
import { hashToken, readTokensFile, StaticTokens } from './staticTokens.js';

let dir: string;
const file = (name: string) => join(dir, name);
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reactor-static-tokens-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('hashToken', () => {
  it('is the hex SHA-256 the tokens file stores', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('StaticTokens', () => {
  it('accepts a listed token with its name and scopes, refuses any other', async () => {
    await writeFile(file('ok.json'), JSON.stringify([{ name: 'ci', sha256: hashToken('ci-token'), scopes: ['mcp'] }, { name: 'ops', sha256: hashToken('ops-token').toUpperCase(), scopes: ['mcp', 'admin'] }]));
    const tokens = await StaticTokens.load(file('ok.json'), new URL('https://mcp.example/mcp'));
    expect(tokens.names).toEqual(['ci', 'ops']);
    const ops = await tokens.verifyAccessToken('ops-token');
    expect(ops).toMatchObject({ clientId: 'ops', scopes: ['mcp', 'admin'], resource: new URL('https://mcp.example/mcp'), extra: { sub: 'ops' } });
    expect(ops.expiresAt).toBeGreaterThan(Date.now() / 1000);
    await expect(tokens.verifyAccessToken('ops-token ')).rejects.toMatchObject({ code: 'invalid_token' });
    await expect(tokens.verifyAccessToken(hashToken('ops-token'))).rejects.toMatchObject({ code: 'invalid_token' }); // the hash is not the token
  });

  it('reloads; a broken file leaves the tokens loaded before in force', async () => {
    await writeFile(file('reload.json'), JSON.stringify([{ name: 'old', sha256: hashToken('old-token') }]));
    const tokens = await StaticTokens.load(file('reload.json'));
    await writeFile(file('reload.json'), JSON.stringify([{ name: 'new', sha256: hashToken('new-token') }]));
    await tokens.reload();
    expect(tokens.match('new-token')?.name).toBe('new');
    expect(tokens.match('old-token')).toBeUndefined();
    await writeFile(file('reload.json'), '[{"name": "half-written"');
    await expect(tokens.reload()).rejects.toMatchObject({ code: ErrorCodes.OPTION_INVALID });
    expect(tokens.match('new-token')?.name).toBe('new');
  });

  it.each([
    ['{}', /is not an array/],
    ['not json', /is not JSON/],
    ['[{"sha256": "00"}]', /entry 0 has no "name"/],
    ['[{"name": "ci", "sha256": "my-token"}]', /entry 0 \("ci"\) has an invalid "sha256"; expected 64 hexadecimal digits/],
    [`[{"name": "ci", "sha256": "${'a'.repeat(64)}", "scopes": "mcp"}]`, /invalid "scopes"/],
    [`[{"name": "a", "sha256": "${'a'.repeat(64)}"}, {"name": "b", "sha256": "${'A'.repeat(64)}"}]`, /entry 1 \("b"\) repeats the hash/],
  ])('refuses %s, naming the file and the entry', async (text, message) => {
    await writeFile(file('bad.json'), text);
    const reading = readTokensFile(file('bad.json'));
    await expect(reading).rejects.toThrow(message);
    await expect(reading).rejects.toThrow(`tokens file "${file('bad.json')}"`);
  });

  it('never puts a token in an error: a file holding a raw token is refused without echoing it', async () => {
    await writeFile(file('raw.json'), JSON.stringify([{ name: 'ci', sha256: 'sk-live-very-secret-token-value' }]));
    await expect(readTokensFile(file('raw.json'))).rejects.toThrow(/^(?!.*sk-live-very-secret).*$/s);
  });
});
