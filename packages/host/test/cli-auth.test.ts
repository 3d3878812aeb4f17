/**
 * Authentication of the real `reactor-mcp-server` command, run as a child
 * process from this package's sources (transpiled; no build step to race):
 * the refusal to serve a public address without auth, static tokens (right,
 * wrong, reloaded on SIGHUP, a broken edit keeping the old ones, never
 * logged), `hash-token`, and JWT access tokens from a real authorization
 * server, with the start-up summary saying which auth is on.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/staticTokens.js';
import { ErrorCodes } from '../src/kernel/errors.js';
import { killCommand, startCommand, type CommandChild } from './helpers/commandChild.js';
import { connectClient, initializeBody, post, textOf } from './helpers/http.js';
import { makeKey, startIssuer, type TestIssuer } from './helpers/oidcProvider.js';
import { transpileForChild, type Transpiled } from './helpers/transpile.js';
import { layoutApp, type FixtureApp } from './fixtures/packages.js';

/** A fixture extension (plain JavaScript): an open toolset and one needing the `admin` scope. */
const NOTES_SOURCE = `export default {
  manifest: { name: 'notes', version: '1.0.0' },
  toolsets: () => [{ name: 'notes' }, { name: 'admin', scopes: ['admin'] }],
  tools: () => [
    { name: 'whoami', description: 'Who is calling.', handler: (_args, ctx) => ctx.http?.authInfo?.clientId ?? 'nobody' },
    { name: 'purge_notes', description: 'Delete every note.', toolset: 'admin', handler: () => 'purged' },
  ],
};
`;

const isSummary = (l: Record<string, unknown>) => typeof l.msg === 'string' && l.msg.includes('extension(s)') && typeof l.url === 'string';

let transpiled: Transpiled;
let app: FixtureApp;
let cli: string;
const children: CommandChild[] = [];
function start(args: string[], env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []): CommandChild {
  const child = startCommand(cli, app.root, args, env, nodeArgs);
  children.push(child);
  return child;
}

beforeAll(async () => {
  transpiled = await transpileForChild();
  cli = transpiled.path('src/cli.js');
  app = await layoutApp('pnpm', [{ name: 'ext-notes', reactorMcp: { extensions: { notes: './index.js' } }, files: { 'index.js': NOTES_SOURCE } }]);
}, 60_000);
afterEach(async () => {
  for (const child of children.splice(0)) await killCommand(child);
});
afterAll(async () => {
  await app.remove();
  await transpiled.remove();
});

describe('a public address without authentication', () => {
  it.each([[['--host', '0.0.0.0']], [['--host', '::']]])('is refused before listening: %j exits 2 with what to do', async (args) => {
    const child = start([...args, '--port', '0']);
    expect(await child.exited).toBe(2);
    expect(child.stderr).toContain(`flag "--host": "${args[1]}" is not a loopback address and no authentication is configured`);
    expect(child.stderr).toContain('--auth-issuer, --auth-introspection-url or --auth-tokens-file');
    expect(child.stderr).toContain('pass --no-auth');
    expect(child.stderr).toContain(ErrorCodes.OPTION_INVALID);
    expect(child.stderr).not.toContain('serving');
  });

  it('is refused from the environment too (REACTOR_MCP_HOST)', async () => {
    const child = start(['--port', '0'], { REACTOR_MCP_HOST: '0.0.0.0' });
    expect(await child.exited).toBe(2);
    expect(child.stderr).toContain('is not a loopback address');
  });
});

describe('static tokens', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reactor-cli-tokens-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('serve the right token, refuse a wrong one, reload on SIGHUP, keep the old set on a broken edit, and never log a token', async () => {
    const tokensFile = join(dir, 'tokens.json');
    const [ciToken, opsToken, nextToken] = ['ci-3f9a1c7e5b', 'ops-8d2e4a6c0f', 'next-1b3d5f7a9c'];
    await writeFile(tokensFile, JSON.stringify([{ name: 'ci', sha256: hashToken(ciToken), scopes: [] }, { name: 'ops', sha256: hashToken(opsToken), scopes: ['admin'] }]));
    const child = start(['--port', '0', '--auth-tokens-file', tokensFile]);
    const summary = await child.line(isSummary);
    expect(summary.msg).toContain('(auth: 2 static token(s))');
    expect(summary.auth).toMatchObject({ mode: ['static-tokens'], staticTokens: { file: tokensFile, names: ['ci', 'ops'] }, protectHealthz: false });
    const url = new URL(summary.url as string);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    const ci = await connectClient('v1 client (sdk 1.32)', url, bearer(ciToken));
    expect(textOf(await ci.callTool('whoami'))).toBe('ci');
    expect(await ci.toolNames()).not.toContain('purge_notes'); // ci lacks "admin"
    await ci.close();
    const ops = await connectClient('v2 client, 2026-07-28 protocol', new URL(`${url.href}?admin`), bearer(opsToken));
    expect(textOf(await ops.callTool('purge_notes'))).toBe('purged');
    await ops.close();
    expect((await post(url, initializeBody(), bearer('ci-3f9a1c7e5c'))).status).toBe(401);
    expect((await post(url, initializeBody(), bearer(hashToken(ciToken)))).status).toBe(401); // the hash is not a token
    expect((await fetch(new URL('/healthz', url))).status).toBe(200); // probes carry no token

    // Rotate: ci's token is replaced; SIGHUP reloads without a restart.
    await writeFile(tokensFile, JSON.stringify([{ name: 'ci', sha256: hashToken(nextToken), scopes: [] }]));
    const reloaded = child.nextLine((l) => typeof l.msg === 'string' && l.msg.startsWith('reloaded the tokens file'));
    child.process.kill('SIGHUP');
    expect(await reloaded).toMatchObject({ tokens: ['ci'] });
    expect((await post(url, initializeBody(), bearer(nextToken))).status).toBe(200);
    expect((await post(url, initializeBody(), bearer(ciToken))).status).toBe(401);
    expect((await post(url, initializeBody(), bearer(opsToken))).status).toBe(401);

    // A half-written file: the error is logged, the tokens loaded before stay in force.
    await writeFile(tokensFile, '[{"name": "ci", "sha256": ');
    const failed = child.nextLine((l) => typeof l.msg === 'string' && l.msg.startsWith('could not reload the tokens file'));
    child.process.kill('SIGHUP');
    expect((await failed).msg).toContain('the 1 token(s) loaded before stay in force');
    expect((await post(url, initializeBody(), bearer(nextToken))).status).toBe(200);

    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    for (const secret of [ciToken, opsToken, nextToken, hashToken(ciToken), hashToken(opsToken), hashToken(nextToken)]) expect(child.stderr).not.toContain(secret);
    expect(child.stdout).toBe('');
  });

  it('a broken tokens file stops the start (exit 2), naming the file and the entry', async () => {
    const tokensFile = join(dir, 'broken.json');
    await writeFile(tokensFile, JSON.stringify([{ name: 'ci', sha256: 'not-a-hash' }]));
    const child = start(['--port', '0', '--auth-tokens-file', tokensFile]);
    expect(await child.exited).toBe(2);
    expect(child.stderr).toContain(`tokens file "${tokensFile}": entry 0 ("ci") has an invalid "sha256"`);
  });

  it('hash-token prints the hash of the token on stdin', async () => {
    const child = start(['hash-token']);
    child.process.stdin.end('my-secret-token\n');
    expect(await child.exited).toBe(0);
    expect(child.stdout).toBe(`${hashToken('my-secret-token')}\n`);
  });
});

describe('JWT access tokens from an authorization server', () => {
  let idp: TestIssuer;
  beforeAll(async () => {
    idp = await startIssuer(await makeKey('cli'));
  });
  afterAll(() => idp.close());

  it('serves only valid tokens, and the 401 challenge names the metadata document that names the issuer', async () => {
    const publicUrl = 'https://mcp.example.test/mcp';
    const child = start(['--port', '0', '--auth-issuer', idp.issuer, '--public-url', publicUrl]);
    const summary = await child.line(isSummary);
    expect(summary.msg).toContain(`(auth: jwt (${idp.issuer}))`);
    expect(summary.auth).toMatchObject({ mode: ['jwt'], issuers: [idp.issuer], audiences: [publicUrl], publicUrl });
    expect(child.stderr).toContain(`issuer ${idp.issuer}: keys at ${idp.issuer}/jwks`);
    const url = new URL(summary.url as string);

    const refused = await post(url, initializeBody());
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp"');
    const metadata = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url))).json()) as { authorization_servers: string[]; scopes_supported: string[] };
    expect(metadata).toMatchObject({ authorization_servers: [idp.issuer], scopes_supported: ['admin'] });

    const token = await idp.token({ scope: 'mcp', resource: publicUrl });
    const client = await connectClient('v2 client, 2025 protocol', url, { authorization: `Bearer ${token}` });
    expect(textOf(await client.callTool('whoami'))).toBe('agent');
    await client.close();
    const elsewhere = await idp.token({ scope: 'mcp', resource: 'https://other.example.test/mcp' });
    expect((await post(url, initializeBody(), { authorization: `Bearer ${elsewhere}` })).status).toBe(401);
    expect((await fetch(new URL('/toolsets', url))).status).toBe(401); // protected by default

    child.process.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    expect(child.stderr).not.toContain(token.split('.')[2]!);
  });
});

describe('jose stays off the import path of those who do not use JWTs', () => {
  /** Node flags that make importing `jose` fail (a resolve hook), so any import of it shows. */
  let withoutJose: string[];
  beforeAll(async () => {
    const hooks = transpiled.path('no-jose-hooks.mjs');
    await writeFile(hooks, `export async function resolve(specifier, context, next) {
  if (specifier === 'jose' || specifier.startsWith('jose/')) throw new Error('jose was imported from ' + context.parentURL);
  return next(specifier, context);
}
`);
    const register = transpiled.path('no-jose-register.mjs');
    await writeFile(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    withoutJose = ['--import', pathToFileURL(register).href];
  });

  it('importing @reactor/host does not load it', async () => {
    const child = start([], {}, [...withoutJose, '--input-type=module', '-e', `const host = await import(${JSON.stringify(pathToFileURL(transpiled.path('src/index.js')).href)}); process.stdout.write(typeof host.createMcpApp);`]);
    expect(await child.exited).toBe(0);
    expect(child.stdout).toBe('function');
  });

  it('the command with static tokens does not load it; with --auth-issuer it does (so this test can fail)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reactor-cli-nojose-'));
    try {
      await writeFile(join(dir, 'tokens.json'), JSON.stringify([{ name: 'ci', sha256: hashToken('t'), scopes: [] }]));
      const statics = start(['--port', '0', '--auth-tokens-file', join(dir, 'tokens.json')], {}, withoutJose);
      expect((await statics.line(isSummary)).msg).toContain('static token');
      const issuer = start(['--port', '0', '--auth-issuer', 'http://127.0.0.1:9/', '--public-url', 'https://mcp.example.test/mcp'], {}, withoutJose);
      expect(await issuer.exited).toBe(1);
      expect(issuer.stderr).toContain('jose was imported from');
      expect(issuer.stderr).toContain('auth/jwt.js');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
