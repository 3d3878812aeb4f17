import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMAND_HELP, parseCommandOptions, runCommand, type CommandDependencies, type RunningCommand } from './command.js';
import { ErrorCodes } from '../kernel/errors.js';
import { createMemoryTaskStore } from '../serve/http/tasks/memoryTaskStore.js';
import { defineExtension, type ExtensionInput } from '../contract/extension.js';
import type { Logger } from '../kernel/logger.js';
import { HOST_VERSION } from '../kernel/version.js';

const optionError = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toMatchObject({ code: ErrorCodes.OPTION_INVALID });
    return (error as Error).message;
  }
  throw new Error('expected an OPTION_INVALID error');
};

describe('parseCommandOptions', () => {
  it('has the documented defaults', () => {
    expect(parseCommandOptions([], {})).toEqual({
      transport: 'http',
      host: '127.0.0.1',
      port: 4040,
      path: '/mcp',
      name: 'reactor-mcp-server',
      extensions: undefined,
      toolsets: undefined,
      ignoreQueryKeys: [],
      allowedHosts: undefined,
      toolsetsTool: true,
      fastPath: true,
      sessions: true,
      readOnly: false,
      dynamicToolsets: false,
      logLevel: 'info',
      requestStateKey: undefined,
      auth: {
        issuers: [],
        audiences: [],
        publicUrl: undefined,
        introspectionUrl: undefined,
        introspectionClient: undefined,
        tokensFile: undefined,
        requiredScopes: [],
        protectToolsets: true,
        protectHealthz: false,
        clockSkewSeconds: 30,
        jwksCooldownSeconds: 30,
        disabled: false,
      },
      watch: false,
      logFormat: 'json',
      root: undefined,
      redisUrl: undefined,
      redisKeyPrefix: undefined,
      nodeId: undefined,
      advertiseUrl: undefined,
      eventReplayMax: undefined,
      eventReplayAgeMs: undefined,
      sessionIdleTimeoutMs: undefined,
      metricsPort: undefined,
      logPayloads: false,
      help: false,
      version: false,
      command: 'serve',
      catalog: true,
      corsOrigins: undefined,
      corsAllowAnyOriginWithoutAuth: false,
      registryName: undefined,
      remoteUrl: undefined,
    });
  });

  it('reads the failover flags: --advertise-url, --event-replay-max, --event-replay-age and --session-idle-timeout (seconds), or their variables', () => {
    expect(parseCommandOptions(['--advertise-url', 'http://10.0.0.12:4040/', '--event-replay-max', '50', '--event-replay-age', '120', '--session-idle-timeout', '600'], {})).toMatchObject({
      advertiseUrl: 'http://10.0.0.12:4040',
      eventReplayMax: 50,
      eventReplayAgeMs: 120_000,
      sessionIdleTimeoutMs: 600_000,
    });
    expect(parseCommandOptions([], { REACTOR_MCP_ADVERTISE_URL: 'https://web-1.internal:8443', REACTOR_MCP_EVENT_REPLAY_MAX: '10', REACTOR_MCP_EVENT_REPLAY_AGE: '30', REACTOR_MCP_SESSION_IDLE_TIMEOUT: '60' })).toMatchObject({
      advertiseUrl: 'https://web-1.internal:8443',
      eventReplayMax: 10,
      eventReplayAgeMs: 30_000,
      sessionIdleTimeoutMs: 60_000,
    });
    expect(() => parseCommandOptions(['--advertise-url', '10.0.0.12:4040'], {})).toThrow('flag "--advertise-url": is not a base URL');
    expect(() => parseCommandOptions(['--advertise-url', 'http://10.0.0.12:4040/mcp'], {})).toThrow('is not a base URL');
    expect(() => parseCommandOptions(['--event-replay-max', '0'], {})).toThrow('flag "--event-replay-max": is not a number of events');
    expect(() => parseCommandOptions([], { REACTOR_MCP_SESSION_IDLE_TIMEOUT: '30m' })).toThrow('environment variable REACTOR_MCP_SESSION_IDLE_TIMEOUT: is not a number of seconds');
  });

  it('reads the requestState key from --request-state-key or REACTOR_MCP_REQUEST_STATE_KEY, and refuses one under 32 bytes', () => {
    const key = 'k'.repeat(32);
    expect(parseCommandOptions(['--request-state-key', key], {}).requestStateKey).toBe(key);
    expect(parseCommandOptions([], { REACTOR_MCP_REQUEST_STATE_KEY: key }).requestStateKey).toBe(key);
    expect(() => parseCommandOptions(['--request-state-key', 'short'], {})).toThrow('flag "--request-state-key": is too short to sign requestState; expected at least 32 bytes, received 5 byte(s)');
    expect(() => parseCommandOptions([], { REACTOR_MCP_REQUEST_STATE_KEY: 'k'.repeat(31) })).toThrow('REACTOR_MCP_REQUEST_STATE_KEY');
  });

  it('reads the catalog, CORS and server-json options', () => {
    expect(parseCommandOptions(['--no-catalog', '--cors-origin', 'https://a.example', '--cors-origin=http://localhost:5173'], {})).toMatchObject({
      catalog: false,
      corsOrigins: ['https://a.example', 'http://localhost:5173'],
    });
    expect(parseCommandOptions([], { REACTOR_MCP_CATALOG: 'off', REACTOR_MCP_CORS_ORIGINS: 'https://a.example, *', REACTOR_MCP_CORS_ALLOW_ANY_ORIGIN_WITHOUT_AUTH: '1' })).toMatchObject({
      catalog: false,
      corsOrigins: ['https://a.example', '*'],
      corsAllowAnyOriginWithoutAuth: true,
    });
    expect(parseCommandOptions(['server-json', '--registry-name', 'io.github.acme/tools', '--remote-url', 'https://mcp.acme.dev/mcp'], {})).toMatchObject({
      command: 'server-json',
      registryName: 'io.github.acme/tools',
      remoteUrl: 'https://mcp.acme.dev/mcp',
    });
    expect(() => parseCommandOptions(['--cors-origin', 'https://a.example/path'], {})).toThrow(/--cors-origin.*not an origin/s);
    expect(() => parseCommandOptions(['--port', '1', 'server-json'], {})).toThrow(/server-json first/);
  });

  it('reads --log-format and --root, and their environment variables', () => {
    expect(parseCommandOptions(['--log-format', 'pretty', '--root', '/srv/app'], {})).toMatchObject({ logFormat: 'pretty', root: '/srv/app' });
    expect(parseCommandOptions([], { REACTOR_MCP_LOG_FORMAT: 'pretty', REACTOR_MCP_ROOT: '/srv/app' })).toMatchObject({ logFormat: 'pretty', root: '/srv/app' });
    expect(optionError(() => parseCommandOptions(['--log-format', 'xml'], {}))).toContain('flag "--log-format": is invalid; expected one of json, pretty');
  });

  it('accepts a leading "--" (pnpm start -- --port 5050 passes it on)', () => {
    expect(parseCommandOptions(['--', '--port', '5050'], {}).port).toBe(5050);
  });

  it('says why an argument after a later "--" is refused, without contradicting itself', () => {
    const message = optionError(() => parseCommandOptions(['--port', '1', '--', '--host', 'x'], {}));
    expect(message).toContain('argument "--host": comes after "--"');
    expect(message).toContain('remove the "--"');
  });

  it.each([
    [['--prot', '4040'], 'did you mean --port?'],
    [['--toolset', 'only=spaces'], 'did you mean --toolsets?'],
    [['--log-levle=debug'], 'did you mean --log-level?'],
    [['port', '4040'], 'did you mean --port?'],
  ])('suggests the flag meant for %j', (argv, suggestion) => {
    expect(optionError(() => parseCommandOptions(argv, {}))).toContain(suggestion);
  });

  it('reads every flag', () => {
    const options = parseCommandOptions(
      ['--transport', 'stdio', '--host=0.0.0.0', '--port', '0', '--path', '/api/mcp', '--name', 'acme', '--extension', 'spaces', '--extension=benchmarks',
        '--toolsets', 'only=spaces', '--ignore-query-key', 'utm_source', '--ignore-query-key', 'token', '--no-toolsets-tool', '--stateless', '--log-level', 'debug'],
      {},
    );
    expect(options).toMatchObject({
      transport: 'stdio', host: '0.0.0.0', port: 0, path: '/api/mcp', name: 'acme', extensions: ['spaces', 'benchmarks'],
      toolsets: 'only=spaces', ignoreQueryKeys: ['utm_source', 'token'], toolsetsTool: false, sessions: false, logLevel: 'debug',
    });
  });

  it('reads --log-payloads and REACTOR_MCP_LOG_PAYLOADS (a debugging flag, off by default)', () => {
    expect(parseCommandOptions(['--log-payloads'], {}).logPayloads).toBe(true);
    expect(parseCommandOptions([], { REACTOR_MCP_LOG_PAYLOADS: '1' }).logPayloads).toBe(true);
    expect(parseCommandOptions([], { REACTOR_MCP_LOG_PAYLOADS: 'off' }).logPayloads).toBe(false);
    expect(optionError(() => parseCommandOptions([], { REACTOR_MCP_LOG_PAYLOADS: 'loud' }))).toContain('REACTOR_MCP_LOG_PAYLOADS');
  });

  it('reads --[no-]fast-path and REACTOR_MCP_FAST_PATH (the app\'s fast path, default on)', () => {
    expect(parseCommandOptions(['--no-fast-path'], {}).fastPath).toBe(false);
    expect(parseCommandOptions([], { REACTOR_MCP_FAST_PATH: 'off' }).fastPath).toBe(false);
    expect(parseCommandOptions(['--fast-path'], { REACTOR_MCP_FAST_PATH: 'off' }).fastPath).toBe(true);
  });

  it('reads --dynamic-toolsets and REACTOR_MCP_DYNAMIC_TOOLSETS (off by default)', () => {
    expect(parseCommandOptions([], {}).dynamicToolsets).toBe(false);
    expect(parseCommandOptions(['--dynamic-toolsets'], {}).dynamicToolsets).toBe(true);
    expect(parseCommandOptions([], { REACTOR_MCP_DYNAMIC_TOOLSETS: '1' }).dynamicToolsets).toBe(true);
    expect(() => parseCommandOptions([], { REACTOR_MCP_DYNAMIC_TOOLSETS: 'perhaps' })).toThrow('environment variable REACTOR_MCP_DYNAMIC_TOOLSETS: is not a boolean');
  });

  it('reads --read-only and REACTOR_MCP_READ_ONLY (the operator\'s read-only bound)', () => {
    expect(parseCommandOptions(['--read-only'], {}).readOnly).toBe(true);
    expect(parseCommandOptions([], { REACTOR_MCP_READ_ONLY: 'true' }).readOnly).toBe(true);
    expect(parseCommandOptions([], { REACTOR_MCP_READ_ONLY: 'off' }).readOnly).toBe(false);
    expect(() => parseCommandOptions([], { REACTOR_MCP_READ_ONLY: 'perhaps' })).toThrow('environment variable REACTOR_MCP_READ_ONLY: is not a boolean');
    expect(() => parseCommandOptions(['--read-only=false'], {})).toThrow('flag "--read-only": takes no value');
  });

  it('reads REACTOR_MCP_SESSIONS as the flags name it too (sessions, stateless)', () => {
    expect(parseCommandOptions([], { REACTOR_MCP_SESSIONS: 'stateless' }).sessions).toBe(false);
    expect(parseCommandOptions([], { REACTOR_MCP_SESSIONS: 'sessions' }).sessions).toBe(true);
  });

  it('reads every environment variable', () => {
    const options = parseCommandOptions([], {
      REACTOR_MCP_TRANSPORT: 'stdio', REACTOR_MCP_HOST: '::1', REACTOR_MCP_PORT: '8080', REACTOR_MCP_PATH: '/x', REACTOR_MCP_NAME: 'env-name',
      REACTOR_MCP_EXTENSIONS: ' spaces, benchmarks ,,spaces', REACTOR_MCP_TOOLSETS: '?benchmarks', REACTOR_MCP_TOOLSETS_TOOL: 'off', REACTOR_MCP_SESSIONS: 'FALSE', REACTOR_MCP_LOG: 'warn',
    });
    expect(options).toMatchObject({
      transport: 'stdio', host: '::1', port: 8080, path: '/x', name: 'env-name', extensions: ['spaces', 'benchmarks'],
      toolsets: 'benchmarks', toolsetsTool: false, sessions: false, logLevel: 'warn',
    });
  });

  it('lets flags win over environment variables, and treats an empty variable as unset', () => {
    const env = { REACTOR_MCP_PORT: '1', REACTOR_MCP_EXTENSIONS: 'a', REACTOR_MCP_SESSIONS: '0', REACTOR_MCP_TOOLSETS_TOOL: 'no', REACTOR_MCP_HOST: '' };
    expect(parseCommandOptions(['--port', '2', '--extension', 'b', '--sessions', '--toolsets-tool'], env)).toMatchObject({ port: 2, extensions: ['b'], sessions: true, toolsetsTool: true, host: '127.0.0.1' });
  });

  it('takes the last of a flag and its opposite', () => {
    expect(parseCommandOptions(['--stateless', '--sessions'], {}).sessions).toBe(true);
    expect(parseCommandOptions(['--sessions', '--stateless'], {}).sessions).toBe(false);
    expect(parseCommandOptions(['--no-toolsets-tool', '--toolsets-tool'], {}).toolsetsTool).toBe(true);
    expect(parseCommandOptions(['--port', '1', '--port', '2'], {}).port).toBe(2);
  });

  it('drops a trailing slash of the path, since /mcp and /mcp/ are one endpoint', () => {
    expect(parseCommandOptions(['--path', '/mcp/'], {}).path).toBe('/mcp');
    expect(parseCommandOptions(['--path', '/'], {}).path).toBe('/');
  });

  it('recognizes -h/--help and -v/--version', () => {
    expect(parseCommandOptions(['-h'], {}).help).toBe(true);
    expect(parseCommandOptions(['--version'], {}).version).toBe(true);
  });

  it('reads nothing but its arguments (pure)', () => {
    process.env.REACTOR_MCP_PORT = '9999';
    try {
      expect(parseCommandOptions([], {}).port).toBe(4040);
    } finally {
      delete process.env.REACTOR_MCP_PORT;
    }
  });

  it.each([
    [['--nosuch'], 'flag "--nosuch": is not an option'],
    [['-z'], 'flag "-z": is not an option'],
    [['serve'], 'argument "serve": is not a flag; reactor-mcp-server takes flags only, such as --port 4040'],
    [['--port', 'abc'], 'flag "--port": is not a port'],
    [['--port', '65536'], 'flag "--port": is not a port'],
    [['--port'], 'flag "--port": needs a value'],
    [['--port', '--stateless'], 'flag "--port": needs a value'],
    [['--sessions=yes'], 'flag "--sessions": takes no value'],
    [['--transport', 'sse'], 'flag "--transport": is invalid; expected one of http, stdio, received the string "sse"'],
    [['--log-level', 'loud'], 'flag "--log-level": is invalid'],
    [['--path', 'mcp'], 'flag "--path": is not a URL path'],
    [['--path', '/mcp?x=1'], 'flag "--path": is not a URL path'],
    [['--name', ' '], 'flag "--name": is empty'],
    [['--extension', 'Bad_Name'], 'flag "--extension": names an invalid extension'],
    [['--ignore-query-key', ''], 'flag "--ignore-query-key": is empty'],
    [['--allowed-host', 'evil.com/path'], 'flag "--allowed-host": names an invalid host'],
  ])('refuses %j with a message naming the flag', (argv, message) => {
    expect(optionError(() => parseCommandOptions(argv, {}))).toContain(message);
  });

  it.each([
    [{ REACTOR_MCP_PORT: '-1' }, 'environment variable REACTOR_MCP_PORT: is not a port'],
    [{ REACTOR_MCP_TRANSPORT: 'HTTP' }, 'environment variable REACTOR_MCP_TRANSPORT: is invalid'],
    [{ REACTOR_MCP_SESSIONS: 'maybe' }, 'environment variable REACTOR_MCP_SESSIONS: is not a boolean'],
    [{ REACTOR_MCP_TOOLSETS_TOOL: '2' }, 'environment variable REACTOR_MCP_TOOLSETS_TOOL: is not a boolean'],
    [{ REACTOR_MCP_EXTENSIONS: 'ok,Not OK' }, 'environment variable REACTOR_MCP_EXTENSIONS: names an invalid extension'],
  ])('refuses the environment %j with a message naming the variable', (env, message) => {
    expect(optionError(() => parseCommandOptions([], env))).toContain(message);
  });
});

/** A logger that keeps what it is told. */
function recordingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; msg: string | undefined }> = [];
  const make = (): Logger => {
    const at = (level: string) => (objOrMsg: object | string, msg?: string) =>
      lines.push(typeof objOrMsg === 'string' ? { level, fields: {}, msg: objOrMsg } : { level, fields: objOrMsg as Record<string, unknown>, msg });
    return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => make() };
  };
  return { logger: make(), lines };
}

/** A fake app: answers every request from `handle` and records how it was made and closed. */
function fakeApp(handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok')) {
  const made: { options?: unknown; closed: boolean } = { closed: false };
  const createMcpApp: CommandDependencies['createMcpApp'] = (_host, options) => {
    made.options = options;
    return Promise.resolve(Object.assign((req: IncomingMessage, res: ServerResponse) => handle(req, res), { close: () => ((made.closed = true), Promise.resolve()) }));
  };
  return { createMcpApp, made };
}

describe('runCommand', () => {
  const running: RunningCommand[] = [];
  afterEach(async () => {
    for (const r of running.splice(0)) await r.close();
  });

  const events: string[] = [];
  const spaces = () =>
    defineExtension({
      manifest: { name: 'spaces', version: '1.2.3' },
      tools: () => [{ name: 'list_spaces', description: 'List spaces.', handler: () => [] }],
      onStop: () => void events.push('onStop'),
    });
  const held = () => defineExtension({ manifest: { name: 'benchmarks', version: '2.0.0', activationEvents: ['onToolset:benchmarks'] }, toolsets: () => [{ name: 'benchmarks', default: false }] });
  const broken = () => defineExtension({ manifest: { name: 'broken', version: 'not-semver' } });

  function deps(extensions: ExtensionInput[], more: Partial<CommandDependencies> = {}) {
    const { logger, lines } = recordingLogger();
    const signals = new EventEmitter();
    const loaded: unknown[] = [];
    let exited: (code: number) => void = () => {};
    const exit = new Promise<number>((resolve) => (exited = resolve));
    const d: Partial<CommandDependencies> = {
      loadExtensions: (options) => (loaded.push(options), Promise.resolve(extensions as never)),
      createLogger: () => logger,
      stdout: (text) => void lines.push({ level: 'stdout', fields: {}, msg: text }),
      signals: signals as unknown as CommandDependencies['signals'],
      exit: (code) => exited(code),
      loadCatalog: () => Promise.resolve(undefined),
      ...more,
    };
    return { d, lines, signals, loaded, exit };
  }

  const SHARED_TASKS_SECRET = 'a-tasks-secret-shared-by-every-replica-0123456789';
  async function start(argv: string[], d: Partial<CommandDependencies>, env: NodeJS.ProcessEnv = {}) {
    const r = await runCommand(['--port', '0', ...argv], env, d);
    if (r) running.push(r);
    return r!;
  }

  it('prints the help to stdout and serves nothing', async () => {
    const { d, lines, loaded } = deps([]);
    expect(await runCommand(['--help'], {}, d)).toBeUndefined();
    expect(lines).toEqual([{ level: 'stdout', fields: {}, msg: COMMAND_HELP }]);
    expect(loaded).toEqual([]);
    await runCommand(['-v'], {}, d);
    expect(lines[1]?.msg).toBe(`${HOST_VERSION}\n`);
  });

  it('wires discovery, the host and the app from the options, and serves on the port', async () => {
    const app = fakeApp();
    const { d, loaded } = deps([spaces()], { createMcpApp: app.createMcpApp });
    const r = await start(['--extension', 'spaces', '--path', '/api', '--toolsets', 'only=spaces', '--ignore-query-key', 'utm', '--stateless', '--name', 'acme'], d);
    expect(loaded).toEqual([expect.objectContaining({ names: ['spaces'] })]);
    expect(app.made.options).toEqual({ path: '/api', defaultSelection: 'only=spaces', ignoreQueryKeys: ['utm'], sessions: false });
    expect(r.host.name).toBe('acme');
    expect((await r.host.build()).toolNames).toEqual(['list_spaces', 'list_server_toolsets']);
    expect(r.url).toBe(`http://127.0.0.1:${(r.server!.address() as AddressInfo).port}/api`);
    expect(await (await fetch(r.url!)).text()).toBe('ok');
  });

  it("refuses --cors-origin '*' without auth, naming the flag that allows it; any origin with auth or a listed one is fine", () => {
    for (const [argv, env] of [[['--cors-origin', '*'], {}], [[], { REACTOR_MCP_CORS_ORIGINS: 'https://a.example,*' }], [['--cors-origin', '*', '--no-auth', '--host', '0.0.0.0'], {}]] as const) {
      const message = optionError(() => parseCommandOptions(argv, env));
      expect(message).toContain('any web page');
      expect(message).toContain('--cors-allow-any-origin-without-auth');
    }
    expect(parseCommandOptions(['--cors-origin', '*', '--cors-allow-any-origin-without-auth'], {})).toMatchObject({ corsOrigins: ['*'], corsAllowAnyOriginWithoutAuth: true });
    expect(parseCommandOptions(['--cors-origin', '*', '--auth-tokens-file', 'tokens.json'], {})).toMatchObject({ corsOrigins: ['*'], corsAllowAnyOriginWithoutAuth: false });
    expect(parseCommandOptions(['--cors-origin', 'https://a.example'], {})).toMatchObject({ corsOrigins: ['https://a.example'] });
    // stdio has no CORS: nothing to refuse.
    expect(parseCommandOptions(['--transport', 'stdio', '--cors-origin', '*'], {})).toMatchObject({ transport: 'stdio' });
  });

  it("serves --cors-origin '*' without auth only with --cors-allow-any-origin-without-auth, and warns when CORS meets no auth", async () => {
    await expect(runCommand(['--port', '0', '--cors-origin', '*'], {}, deps([spaces()]).d)).rejects.toMatchObject({ code: ErrorCodes.OPTION_INVALID, message: expect.stringContaining('--cors-allow-any-origin-without-auth') as unknown });
    const { d, lines } = deps([spaces()]);
    const r = await start(['--cors-origin', '*', '--cors-allow-any-origin-without-auth'], d);
    const preflight = await fetch(r.url!, { method: 'OPTIONS', headers: { origin: 'https://any.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toContainEqual(expect.stringMatching(/no authentication.*any web page/s));
    const listed = deps([spaces()]);
    await start(['--cors-origin', 'https://a.example'], listed.d);
    expect(listed.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toContainEqual(expect.stringMatching(/https:\/\/a\.example.*no authentication/s));
  });

  it('turns the catalog on when @reactor/catalog is installed, off with --no-catalog, and passes --cors-origin', async () => {
    const catalog = () => new Response('page');
    const tokenCounter = { name: 'fake', count: () => 1 };
    const asked: Array<string | undefined> = [];
    const loadCatalog = (root: string | undefined) => (asked.push(root), Promise.resolve({ catalog, tokenCounter }));
    const on = fakeApp();
    await start(['--cors-origin', 'https://a.example'], deps([spaces()], { createMcpApp: on.createMcpApp, loadCatalog, root: '/app' }).d);
    expect(asked).toEqual(['/app']);
    expect(on.made.options).toMatchObject({ catalog, tokenCounter, corsOrigins: ['https://a.example'] });
    const off = fakeApp();
    await start(['--no-catalog'], deps([spaces()], { createMcpApp: off.createMcpApp, loadCatalog }).d);
    expect(asked).toHaveLength(1);
    expect(off.made.options).not.toHaveProperty('catalog');
    const missing = fakeApp();
    const { d, lines } = deps([spaces()], { createMcpApp: missing.createMcpApp });
    await start([], d);
    expect(missing.made.options).not.toHaveProperty('catalog');
    expect(lines.some((l) => l.msg?.includes('install @reactor/catalog'))).toBe(true);
    const broken = fakeApp();
    const failing = deps([spaces()], { createMcpApp: broken.createMcpApp, loadCatalog: () => Promise.reject(new Error('no exports')) });
    await start([], failing.d);
    expect(broken.made.options).not.toHaveProperty('catalog');
    expect(failing.lines.some((l) => l.level === 'warn' && l.msg?.includes('could not be loaded (no exports)'))).toBe(true);
  });

  it('passes the public host names of a reverse proxy to the app (--allowed-host, REACTOR_MCP_ALLOWED_HOSTS)', async () => {
    expect(parseCommandOptions(['--allowed-host', 'mcp.example.com', '--allowed-host', 'mcp.example.com:8443'], {}).allowedHosts).toEqual(['mcp.example.com', 'mcp.example.com:8443']);
    expect(parseCommandOptions([], { REACTOR_MCP_ALLOWED_HOSTS: 'a.example, b.example' }).allowedHosts).toEqual(['a.example', 'b.example']);
    const app = fakeApp();
    const { d } = deps([spaces()], { createMcpApp: app.createMcpApp });
    await start(['--allowed-host', 'mcp.example.com'], d);
    expect(app.made.options).toMatchObject({ allowedHosts: ['mcp.example.com'] });
  });

  it('connects to Redis for --redis-url / REACTOR_MCP_REDIS_URL, hands the app its store, bus and health check, names the node, and closes Redis on shutdown', async () => {
    expect(parseCommandOptions([], { REACTOR_MCP_REDIS_URL: 'redis://cache:6379', REACTOR_MCP_NODE_ID: 'web-2' })).toMatchObject({ redisUrl: 'redis://cache:6379', nodeId: 'web-2' });
    expect(() => parseCommandOptions(['--redis-url', 'http://cache'], {})).toThrow(/--redis-url.*is not a Redis URL/s);
    expect(() => parseCommandOptions(['--node-id', 'web 1'], {})).toThrow(/--node-id.*is not a node name/s);
    expect(parseCommandOptions(['--redis-key-prefix', 'shop:mcp'], { REACTOR_MCP_REDIS_KEY_PREFIX: 'other' }).redisKeyPrefix).toBe('shop:mcp');
    expect(parseCommandOptions([], { REACTOR_MCP_REDIS_KEY_PREFIX: 'other' }).redisKeyPrefix).toBe('other');
    expect(() => parseCommandOptions(['--redis-key-prefix', 'a b'], {})).toThrow(/--redis-key-prefix.*is not a Redis key prefix/s);
    const app = fakeApp();
    const asked: Array<{ url: string; sessionIdleTimeoutMs: number; keyPrefix?: string | undefined }> = [];
    let redisClosed = false;
    const redis = {
      eventStore: { forSession: () => ({ storeEvent: () => Promise.resolve('1'), replayEventsAfter: () => Promise.resolve('s') }), endSession: () => Promise.resolve() },
      bus: { publish: () => undefined, subscribe: () => () => undefined },
      healthCheck: { name: 'redis', check: () => ({ ok: true }) },
      // The shared task store (a stand-in here): every replica's app answers tasks from it.
      tasks: createMemoryTaskStore(),
      close: () => ((redisClosed = true), Promise.resolve()),
    };
    const connectRedis: CommandDependencies['connectRedis'] = ({ url, sessionIdleTimeoutMs, keyPrefix }) => (asked.push({ url, sessionIdleTimeoutMs, keyPrefix }), Promise.resolve(redis));
    const { d } = deps([spaces()], { createMcpApp: app.createMcpApp, connectRedis });
    const r = await start(['--redis-url', 'redis://127.0.0.1:6390', '--node-id', 'web-1', '--redis-key-prefix', 'shop:mcp'], d, { REACTOR_TASKS_SECRET: SHARED_TASKS_SECRET });
    expect(asked).toEqual([{ url: 'redis://127.0.0.1:6390', sessionIdleTimeoutMs: 30 * 60_000, keyPrefix: 'shop:mcp' }]);
    expect(app.made.options).toMatchObject({ eventStore: redis.eventStore, bus: redis.bus, healthChecks: [redis.healthCheck], nodeId: 'web-1' });
    expect((app.made.options as { tasks?: { store?: unknown; secret?: unknown } }).tasks).toEqual({ store: redis.tasks, secret: SHARED_TASKS_SECRET });
    await r.close();
    expect(redisClosed).toBe(true);
    await redis.tasks.close();
  });

  it('with --redis-url and a shared task store, signs task ids with a key every replica shares: REACTOR_TASKS_SECRET, else one derived from --request-state-key; with neither it refuses to start, saying what to set', async () => {
    let closed = 0;
    const redis = {
      eventStore: { forSession: () => ({ storeEvent: () => Promise.resolve('1'), replayEventsAfter: () => Promise.resolve('s') }), endSession: () => Promise.resolve() },
      bus: { publish: () => undefined, subscribe: () => () => undefined },
      healthCheck: { name: 'redis', check: () => ({ ok: true }) },
      tasks: createMemoryTaskStore(),
      close: () => (closed++, Promise.resolve()),
    };
    const secretOf = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
      const app = fakeApp();
      const { d } = deps([spaces()], { createMcpApp: app.createMcpApp, connectRedis: () => Promise.resolve(redis) });
      const r = await start(['--redis-url', 'redis://127.0.0.1:6390', ...argv], d, env);
      await r.close();
      return (app.made.options as { tasks: { secret: string } }).tasks.secret;
    };
    const key = 'a-request-state-key-shared-by-every-replica-of-this-cluster';
    // Two replicas given the same --request-state-key derive the same task-id key (HKDF): not the key itself, and at least 32 bytes.
    const derived = await secretOf(['--request-state-key', key]);
    expect(await secretOf([], { REACTOR_MCP_REQUEST_STATE_KEY: key })).toBe(derived);
    expect(derived).not.toBe(key);
    expect(Buffer.byteLength(derived)).toBeGreaterThanOrEqual(32);
    expect(await secretOf(['--request-state-key', `${key}-other`])).not.toBe(derived);
    expect(await secretOf(['--request-state-key', key], { REACTOR_TASKS_SECRET: SHARED_TASKS_SECRET })).toBe(SHARED_TASKS_SECRET);
    // Neither: refused at start-up (Redis closed again), naming both ways out.
    const before = closed;
    const { d } = deps([spaces()], { createMcpApp: fakeApp().createMcpApp, connectRedis: () => Promise.resolve(redis) });
    await expect(runCommand(['--redis-url', 'redis://127.0.0.1:6390', '--port', '0'], {}, d)).rejects.toMatchObject({
      code: ErrorCodes.OPTION_INVALID,
      message: expect.stringMatching(/--redis-url[\s\S]*REACTOR_MCP_REQUEST_STATE_KEY[\s\S]*REACTOR_TASKS_SECRET/) as unknown,
    });
    expect(closed).toBe(before + 1);
    await redis.tasks.close();
  });

  it('passes the replay window and idle timeout to Redis and the app, and advertises where the other replicas reach this one', async () => {
    const app = fakeApp();
    const asked: unknown[] = [];
    const advertised: string[] = [];
    const redis = {
      eventStore: { forSession: () => ({ storeEvent: () => Promise.resolve('1'), replayEventsAfter: () => Promise.resolve('s') }), endSession: () => Promise.resolve() },
      bus: { publish: () => undefined, subscribe: () => () => undefined },
      healthCheck: { name: 'redis', check: () => ({ ok: true }) },
      sessions: { nodeId: 'web-1', record: () => Promise.resolve(), claim: () => Promise.resolve({ kind: 'unknown' as const }), touch: () => undefined, end: () => Promise.resolve(), release: () => Promise.resolve(), advertise: (url: string) => void advertised.push(url) },
      close: () => Promise.resolve(),
    };
    const connectRedis: CommandDependencies['connectRedis'] = (options) => (asked.push(options), Promise.resolve(redis));
    const { d } = deps([spaces()], { createMcpApp: app.createMcpApp, connectRedis });
    const r = await start(['--redis-url', 'redis://127.0.0.1:6390', '--event-replay-max', '20', '--event-replay-age', '60', '--session-idle-timeout', '90'], d);
    expect(asked).toEqual([expect.objectContaining({ sessionIdleTimeoutMs: 90_000, eventReplayMax: 20, eventReplayAgeMs: 60_000 })]);
    expect(app.made.options).toMatchObject({ sessions: { idleTimeoutMs: 90_000 } });
    // The listen address, without the MCP path: a relayed request keeps its own path.
    expect(advertised).toEqual([new URL(r.url!).origin]);
    await r.close();
    const pinned = await start(['--redis-url', 'redis://127.0.0.1:6390', '--advertise-url', 'http://10.0.0.12:4040'], d);
    expect(advertised.at(-1)).toBe('http://10.0.0.12:4040');
    await pinned.close();
  });

  it('fails at start-up naming @reactor/redis when --redis-url is given and the package is not installed', async () => {
    const { d } = deps([spaces()], { createMcpApp: fakeApp().createMcpApp });
    // The host does not depend on @reactor/redis, so from here it cannot be resolved: the real loader runs.
    await expect(runCommand(['--redis-url', 'redis://127.0.0.1:6390', '--port', '0'], {}, d)).rejects.toMatchObject({ code: ErrorCodes.OPTION_INVALID, message: expect.stringMatching(/@reactor\/redis[\s\S]*pnpm add @reactor\/redis/) as unknown });
  });

  it('turns the toolsets tool off with --no-toolsets-tool', async () => {
    const { d } = deps([spaces()], { createMcpApp: fakeApp().createMcpApp });
    const r = await start(['--no-toolsets-tool'], d);
    expect((await r.host.build()).toolNames).toEqual(['list_spaces']);
  });

  it('logs one start-up summary: loaded, held, skipped and why, and the URL', async () => {
    const { d, lines } = deps([spaces(), held(), broken()], { createMcpApp: fakeApp().createMcpApp });
    const r = await start([], d);
    expect(lines.filter((l) => l.msg?.includes('serving'))).toHaveLength(1);
    const summary = lines.find((l) => l.msg?.includes('serving'));
    expect(summary?.level).toBe('warn');
    expect(summary?.msg).toBe(`reactor-mcp-server serving 1 loaded, 1 held, 1 skipped extension(s) at ${r.url} (auth: none (loopback only))`);
    expect(summary?.fields).toMatchObject({
      url: r.url,
      auth: { mode: 'none' },
      loaded: ['spaces@1.2.3'],
      held: ['benchmarks@2.0.0 (onToolset:benchmarks)'],
      skipped: [{ extension: 'broken@not-semver', state: 'failed', why: [expect.stringContaining(ErrorCodes.MANIFEST_INVALID)] }],
    });
  });

  it('warns at start-up about a --toolsets name no extension declares, with the nearest declared one', async () => {
    const sandbox = defineExtension({ manifest: { name: 'sandbox', version: '1.0.0' } });
    const { d, lines } = deps([spaces(), sandbox, held()], { createMcpApp: fakeApp().createMcpApp });
    await start(['--toolsets', 'only=sandboxs,benchmarks'], d);
    const warnings = lines.filter((l) => l.level === 'warn' && l.fields.toolset !== undefined);
    expect(warnings.map((w) => w.fields.toolset)).toEqual(['sandboxs']);
    expect(warnings[0]?.msg).toContain('toolset "sandboxs", which no installed extension declares');
    expect(warnings[0]?.msg).toContain('did you mean "sandbox"?');
  });

  it('loads the extensions of the --root directory', async () => {
    const { d, loaded } = deps([spaces()], { createMcpApp: fakeApp().createMcpApp, root: '/from/dependencies' });
    await start(['--root', '/srv/app'], d);
    expect(loaded).toEqual([expect.objectContaining({ root: '/srv/app' })]);
  });

  it('prints the URL to connect to plainly when a person is watching, and not otherwise', async () => {
    const printed: string[] = [];
    const watched = deps([spaces()], { createMcpApp: fakeApp().createMcpApp, interactive: true, stderr: (text) => void printed.push(text) });
    const r = await start([], watched.d);
    expect(printed.join('')).toContain(`serving MCP at ${r.url}`);
    const unwatched = deps([spaces()], { createMcpApp: fakeApp().createMcpApp, interactive: false, stderr: (text) => void printed.push(text) });
    await start([], unwatched.d);
    expect(printed).toHaveLength(1);
  });

  it('on SIGTERM lets an open request finish, refuses new ones, runs onStop, then exits 0', async () => {
    events.length = 0;
    let release: () => void = () => {};
    let received: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const app = fakeApp((req, res) => {
      if (req.url === '/slow') {
        received();
        release = () => res.end('finished');
        res.once('finish', () => events.push('response finished'));
      } else res.end('ok');
    });
    const { d, signals, exit } = deps([spaces()], { createMcpApp: app.createMcpApp });
    const r = await start([], d);
    const slow = fetch(new URL('/slow', r.url), { method: 'POST' }).then((res) => res.text());
    await arrived;
    signals.emit('SIGTERM', 'SIGTERM');
    await expect(fetch(r.url!)).rejects.toThrow();
    release();
    expect(await slow).toBe('finished');
    expect(await exit).toBe(0);
    events.push('exit');
    expect(events).toEqual(['response finished', 'onStop', 'exit']);
    expect(app.made.closed).toBe(true);
    expect(r.server!.listening).toBe(false);
  });

  it('bounds the wait for open requests by the grace period', async () => {
    let received: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const app = fakeApp(() => received()); // never answers
    const { d, signals, exit } = deps([spaces()], { createMcpApp: app.createMcpApp, shutdownGraceMs: 1 });
    const r = await start([], d);
    const hanging = fetch(new URL('/hang', r.url), { method: 'POST' }).catch((error: unknown) => error);
    await arrived;
    signals.emit('SIGINT', 'SIGINT');
    expect(await exit).toBe(0);
    expect(await hanging).toBeInstanceOf(Error);
  });

  /** A fake stdio server: records its selection; `end()` plays the client closing stdin. */
  function fakeStdio() {
    const served: { selection?: unknown; closed: boolean; end: () => void } = { closed: false, end: () => {} };
    const ended = new Promise<void>((resolve) => (served.end = resolve));
    const serveStdio: CommandDependencies['serveStdio'] = (_host, options) => {
      served.selection = options.selection;
      return Promise.resolve({ closed: ended, close: () => ((served.closed = true), served.end(), Promise.resolve()) });
    };
    return { served, serveStdio };
  }

  it('serves stdio with the --toolsets selection, and closes it on shutdown', async () => {
    const { served, serveStdio } = fakeStdio();
    events.length = 0;
    const { d, lines } = deps([spaces()], { serveStdio });
    const r = await start(['--transport', 'stdio', '--toolsets', 'only=spaces'], d);
    expect(served.selection).toBe('only=spaces');
    expect(r.url).toBeUndefined();
    expect(lines.find((l) => l.msg?.includes('serving'))?.msg).toContain('over stdio');
    await r.close();
    expect(served.closed).toBe(true);
    expect(events).toEqual(['onStop']);
  });

  it('in stdio mode, shuts down and exits 0 when the client closes the connection', async () => {
    const { served, serveStdio } = fakeStdio();
    events.length = 0;
    const { d, exit } = deps([spaces()], { serveStdio });
    await start(['--transport', 'stdio'], d);
    expect(served.selection).toBeUndefined();
    served.end();
    expect(await exit).toBe(0);
    expect(events).toEqual(['onStop']);
  });

  it('does not wait out the grace period for the standing streams of open sessions (the real app closes them)', async () => {
    events.length = 0;
    const { d } = deps([spaces()], { shutdownGraceMs: 60_000 });
    const r = await start([], d);
    const client = new Client({ name: 'command-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(r.url!)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_spaces', 'list_server_toolsets']);
    await r.close();
    expect(events).toEqual(['onStop']);
    await client.close();
  });

  it('stops the host when serving cannot begin', async () => {
    events.length = 0;
    const { d } = deps([spaces()], { serveStdio: () => Promise.reject(new Error('no stdin')) });
    await expect(runCommand(['--transport', 'stdio'], {}, d)).rejects.toThrow('no stdin');
    expect(events).toEqual(['onStop']);
  });

  it('fails with OPTION_INVALID naming the port when it cannot listen, after stopping the host', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      events.length = 0;
      const { d } = deps([spaces()], { createMcpApp: fakeApp().createMcpApp });
      const port = String((taken.address() as AddressInfo).port);
      await expect(runCommand(['--port', port], {}, d)).rejects.toMatchObject({ code: ErrorCodes.OPTION_INVALID, message: expect.stringContaining(`cannot listen on 127.0.0.1:${port}`) });
      expect(events).toEqual(['onStop']);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('runCommand check [dir] and --watch', () => {
  it('check lints the package in dir, printing its findings; a failing package exits 1', async () => {
    let out = '';
    const exits: number[] = [];
    const result = await runCommand(['check', '/nonexistent-reactor-package'], {}, { stdout: (text) => (out += text), exit: (code) => exits.push(code) });
    expect(result).toBeUndefined();
    expect(out).toContain('error [package-invalid] package at /nonexistent-reactor-package');
    expect(exits).toEqual([1]);
  });

  it('--watch refuses stdio: the dev loop serves http', async () => {
    await expect(runCommand(['--watch', '--transport', 'stdio'], {})).rejects.toMatchObject({ code: ErrorCodes.OPTION_INVALID, message: expect.stringContaining('flag "--watch": works over http only') as unknown });
  });
});
