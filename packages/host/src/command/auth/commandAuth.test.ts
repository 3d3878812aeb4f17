import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandOptions } from '../commandOptions.js';
import type { Logger } from '../../kernel/logger.js';
import { setUpCommandAuth } from './commandAuth.js';
import { hashToken } from '../../auth/staticTokens.js';
import { describeAuth } from './summary.js';

function recording(): Logger & { lines: Array<{ level: string; msg: string | undefined }> } {
  const lines: Array<{ level: string; msg: string | undefined }> = [];
  const at = (level: string) => (first: unknown, msg?: string) => lines.push({ level, msg: typeof first === 'string' ? first : msg });
  const logger = { lines, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => logger };
  return logger;
}

const setUp = (argv: string[], logger: Logger, signals = new EventEmitter()) =>
  setUpCommandAuth(parseCommandOptions(argv, {}).auth, { logger, name: 'test', listenHost: parseCommandOptions(argv, {}).host, toolsets: [{ name: 'admin', scopes: ['admin'] }], signals: signals as unknown as NodeJS.Process });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reactor-command-auth-'));
  await writeFile(join(dir, 'tokens.json'), JSON.stringify([{ name: 'ci', sha256: hashToken('ci-token'), scopes: ['mcp'] }]));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('setUpCommandAuth', () => {
  it('with nothing configured on loopback: no gate, summary "none"', async () => {
    const logger = recording();
    const auth = await setUp([], logger);
    expect(auth.app).toBeUndefined();
    expect(describeAuth(auth.summary)).toBe('auth: none (loopback only)');
    expect(logger.lines).toEqual([]);
  });

  it('warns when --no-auth serves a public address (before anything listens)', async () => {
    const logger = recording();
    const auth = await setUp(['--host', '0.0.0.0', '--no-auth'], logger);
    expect(auth.app).toBeUndefined();
    expect(describeAuth(auth.summary)).toBe('auth: OFF (--no-auth)');
    expect(logger.lines).toEqual([{ level: 'warn', msg: 'serving 0.0.0.0 WITHOUT authentication (--no-auth): anyone who can reach the port gets every toolset' }]);
  });

  it('static tokens: a gate with the toolsets\' scopes advertised only where an issuer can be named', async () => {
    const auth = await setUp(['--auth-tokens-file', join(dir, 'tokens.json'), '--auth-required-scope', 'mcp', '--public-url', 'https://mcp.example/mcp'], recording());
    expect(auth.app).toMatchObject({ requiredScopes: ['mcp'], protectToolsets: true, protectHealthz: false });
    expect(auth.app?.authorizationServers).toBeUndefined(); // no issuer: no metadata document to point at
    await expect(auth.app?.verifier?.verifyAccessToken('ci-token')).resolves.toMatchObject({ clientId: 'ci', scopes: ['mcp'] });
    await expect(auth.app?.verifier?.verifyAccessToken('other')).rejects.toMatchObject({ code: 'invalid_token' });
    expect(auth.summary).toMatchObject({ mode: ['static-tokens'], staticTokens: { names: ['ci'] } });
    auth.close();
  });

  it('listens for SIGHUP only while open, and only with a tokens file', async () => {
    const signals = new EventEmitter();
    const auth = await setUp(['--auth-tokens-file', join(dir, 'tokens.json')], recording(), signals);
    expect(signals.listenerCount('SIGHUP')).toBe(1);
    signals.emit('SIGHUP');
    expect(signals.listenerCount('SIGHUP')).toBe(1); // re-armed for the next one
    auth.close();
    expect(signals.listenerCount('SIGHUP')).toBe(0);
    const none = await setUp([], recording(), signals);
    expect(signals.listenerCount('SIGHUP')).toBe(0);
    none.close();
  });

  it('an unreachable issuer does not stop the start: it is warned about, and its tokens are refused meanwhile', async () => {
    const logger = recording();
    const auth = await setUp(['--auth-issuer', 'http://127.0.0.1:9/', '--public-url', 'https://mcp.example/mcp'], logger);
    expect(logger.lines.some((l) => l.level === 'warn' && l.msg?.startsWith('issuer http://127.0.0.1:9/ is not reachable yet'))).toBe(true);
    expect(auth.app).toMatchObject({ resourceServerUrl: 'https://mcp.example/mcp', authorizationServers: ['http://127.0.0.1:9/'], scopesSupported: ['admin'], resourceName: 'test' });
    const forged = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from('{"iss":"http://127.0.0.1:9/"}').toString('base64url')}.c2ln`;
    await expect(auth.app?.verifier?.verifyAccessToken(forged)).rejects.toMatchObject({ code: 'invalid_token' });
    auth.close();
  });
});
