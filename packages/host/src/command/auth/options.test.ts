import { describe, expect, it } from 'vitest';
import { ErrorCodes, isReactorError } from '../../kernel/errors.js';
import { parseCommandOptions } from '../command.js';
import { isLoopbackHost } from './options.js';

/** The auth part of the command's options. */
const auth = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseCommandOptions(argv, env).auth;

function refusal(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    parseCommandOptions(argv, env);
  } catch (error) {
    if (isReactorError(error) && error.code === ErrorCodes.OPTION_INVALID) return error.message;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(argv)} to be refused`);
}

describe('the command\'s auth options', () => {
  it('reads issuers, audiences, the public URL and scopes from flags, which win over the environment', () => {
    const env = { REACTOR_MCP_AUTH_ISSUERS: 'https://env.example', REACTOR_MCP_AUTH_REQUIRED_SCOPES: 'env-scope' };
    expect(auth(['--auth-issuer', 'https://a.example/realms/x', '--auth-issuer=https://b.example/', '--auth-audience', 'api://mcp', '--public-url', 'https://mcp.example/mcp', '--auth-required-scope', 'mcp', '--auth-required-scope', 'mcp:read'], env)).toMatchObject({
      issuers: ['https://a.example/realms/x', 'https://b.example/'],
      audiences: ['api://mcp'],
      publicUrl: 'https://mcp.example/mcp',
      requiredScopes: ['mcp', 'mcp:read'],
    });
  });

  it('reads the same from the environment (comma lists; scopes also space-separated)', () => {
    expect(
      auth([], {
        REACTOR_MCP_AUTH_ISSUERS: 'https://a.example, https://b.example',
        REACTOR_MCP_PUBLIC_URL: 'https://mcp.example/mcp',
        REACTOR_MCP_AUTH_REQUIRED_SCOPES: 'mcp mcp:read,admin',
        REACTOR_MCP_AUTH_PROTECT_HEALTHZ: 'yes',
        REACTOR_MCP_AUTH_PROTECT_TOOLSETS: 'off',
        REACTOR_MCP_AUTH_CLOCK_SKEW: '5',
      }),
    ).toMatchObject({ issuers: ['https://a.example', 'https://b.example'], requiredScopes: ['mcp', 'mcp:read', 'admin'], protectHealthz: true, protectToolsets: false, clockSkewSeconds: 5 });
  });

  it('takes the introspection client from the environment only, and requires both parts', () => {
    const env = { REACTOR_MCP_AUTH_CLIENT_ID: 'mcp-server', REACTOR_MCP_AUTH_CLIENT_SECRET: 's3cret' };
    expect(auth(['--auth-introspection-url', 'https://idp.example/introspect', '--public-url', 'https://mcp.example/mcp'], env)).toMatchObject({ introspectionUrl: 'https://idp.example/introspect', introspectionClient: { id: 'mcp-server', secret: 's3cret' } });
    const message = refusal(['--auth-introspection-url', 'https://idp.example/introspect', '--public-url', 'https://mcp.example/mcp'], { REACTOR_MCP_AUTH_CLIENT_ID: 'mcp-server' });
    expect(message).toMatch(/^flag "--auth-introspection-url": needs the client the server authenticates as; expected REACTOR_MCP_AUTH_CLIENT_ID and REACTOR_MCP_AUTH_CLIENT_SECRET/);
    expect(message).not.toContain('s3cret');
  });

  it('needs an audience for tokens from an authorization server', () => {
    expect(refusal(['--auth-issuer', 'https://idp.example'])).toMatch(/^flag "--auth-issuer": has no audience to check tokens against; expected --public-url .* or --auth-audience/);
    expect(auth(['--auth-issuer', 'https://idp.example', '--auth-audience', 'api://mcp']).audiences).toEqual(['api://mcp']);
  });

  it.each([
    [['--auth-issuer', 'http://idp.example', '--public-url', 'https://m.example/mcp'], /flag "--auth-issuer": is not a usable URL \(plain http off loopback\)/],
    [['--auth-issuer', 'idp.example', '--public-url', 'https://m.example/mcp'], /flag "--auth-issuer": is not an absolute URL/],
    [['--auth-issuer', 'https://user:pw@idp.example', '--public-url', 'https://m.example/mcp'], /credentials in the URL/],
    [['--public-url', 'ftp://m.example/mcp', '--auth-tokens-file', 't.json'], /flag "--public-url": is not a usable URL \(scheme ftp:\)/],
    [['--auth-clock-skew', '-5'], /flag "--auth-clock-skew": needs a value/],
    [['--auth-clock-skew', 'soon'], /flag "--auth-clock-skew": is not a number of seconds/],
    [['--no-auth', '--auth-tokens-file', 't.json'], /flag "--no-auth": contradicts the authentication configured/],
  ])('refuses %j', (argv, message) => {
    expect(refusal(argv)).toMatch(message);
  });

  it('accepts an http issuer on loopback (local authorization servers, tests)', () => {
    expect(auth(['--auth-issuer', 'http://127.0.0.1:8080', '--public-url', 'http://localhost:4040/mcp']).issuers).toEqual(['http://127.0.0.1:8080']);
  });
});

describe('refusing to serve a public address without authentication', () => {
  it.each(['0.0.0.0', '::', '192.168.1.10', 'mcp.example.com'])('refuses --host %s with no auth, saying what to do', (host) => {
    const message = refusal(['--host', host]);
    expect(message).toContain(`flag "--host": "${host}" is not a loopback address and no authentication is configured`);
    expect(message).toContain('pass --no-auth to serve without authentication on purpose');
  });

  it('serves it with auth, or with an explicit --no-auth (or REACTOR_MCP_NO_AUTH)', () => {
    expect(auth(['--host', '0.0.0.0', '--auth-tokens-file', 'tokens.json']).tokensFile).toBe('tokens.json');
    expect(auth(['--host', '0.0.0.0', '--no-auth']).disabled).toBe(true);
    expect(auth([], { REACTOR_MCP_HOST: '0.0.0.0', REACTOR_MCP_NO_AUTH: '1' }).disabled).toBe(true);
  });

  it('never applies to loopback or to stdio', () => {
    expect(auth(['--host', '127.0.0.1']).disabled).toBe(false);
    expect(auth(['--host', '::1']).disabled).toBe(false);
    expect(auth(['--transport', 'stdio', '--host', '0.0.0.0']).disabled).toBe(false);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['0.0.0.0', false],
    ['::', false],
    ['128.0.0.1', false],
    ['localhost.example.com', false],
    ['10.0.0.1', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
