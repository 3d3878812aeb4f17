import { describe, expect, it } from 'vitest';
import { ErrorCodes, isReactorError } from './errors.js';
import { buildHost } from '../host/host.js';
import { HOST_OPTION_KEYS } from '../host/hostOptions.js';
import { createMcpApp } from '../serve/http/app.js';
import { APP_OPTION_KEYS } from '../serve/http/options.js';
import { silentLogger } from './logger.js';
import { assertKnownKeys } from './optionKeys.js';

/** What a JavaScript caller or a config file can pass: any keys at all. */
const untyped = <T>(value: Record<string, unknown>) => value as T;

function caught(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('unknown option keys', () => {
  it('createMcpApp refuses a typo, naming the key and the nearest valid one', async () => {
    const host = await buildHost([], { logger: silentLogger });
    const error = caught(() => createMcpApp(host, untyped({ session: false })));
    expect(isReactorError(error) && error.code).toBe(ErrorCodes.OPTION_INVALID);
    expect(error.message).toContain('createMcpApp option "session": is not an option');
    expect(error.message).toContain('did you mean "sessions"?');
    expect(caught(() => createMcpApp(host, untyped({ allowedHost: ['x.example'] }))).message).toContain('did you mean "allowedHosts"?');
  });

  it('createMcpApp checks the keys of sessions and auth too', async () => {
    const host = await buildHost([], { logger: silentLogger });
    expect(caught(() => createMcpApp(host, untyped({ sessions: { idleTimeout: 1000 } }))).message).toContain('createMcpApp sessions option "idleTimeout": is not an option');
    const auth = { verifyAccessToken: () => Promise.resolve({ token: 't', clientId: 'c', scopes: [] }), requiredScope: ['read'] };
    expect(caught(() => createMcpApp(host, untyped({ auth }))).message).toContain('did you mean "requiredScopes"?');
  });

  it('buildHost refuses a typo', async () => {
    await expect(buildHost([], untyped({ logger: silentLogger, toolTimeout: 5 }))).rejects.toThrow(/buildHost option "toolTimeout": is not an option.*did you mean "toolTimeoutMs"\?/s);
  });

  it('lists every valid key when nothing is near', () => {
    const error = caught(() => assertKnownKeys({ database: 'x' }, HOST_OPTION_KEYS, 'buildHost'));
    expect(error.message).toContain(`expected one of ${Object.keys(HOST_OPTION_KEYS).join(', ')}`);
    expect(error.message).not.toContain('did you mean');
  });

  it('accepts every documented key', async () => {
    const host = await buildHost([], { logger: silentLogger, strict: true, maxCachedSelections: 8 });
    const app = createMcpApp(host, { path: '/mcp', sessions: { idleTimeoutMs: 1000, max: 2 }, healthz: true });
    await app.close();
    expect(Object.keys(APP_OPTION_KEYS)).toContain('sessions');
  });
});
