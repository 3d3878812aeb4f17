/**
 * Time limits (spec §10): a tool call is bounded by its spec's `timeoutMs` or
 * the host's `toolTimeoutMs`; past it the call answers `isError` saying so and
 * the handler's `ctx.signal` is aborted. A slow or hanging call holds up
 * nothing else — not the other calls of its session, not other sessions, not
 * other clients. `onServer`, `onStart` and `onStop` are bounded too.
 *
 * No test waits on a clock: handlers that block are released by the test, and
 * time-outs are observed through their results.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../src/kernel/errors.js';
import { buildHost, type HostOptions, type McpHost } from '../src/host/host.js';
import { createMcpApp, defineExtension, defineTool, silentLogger, type McpExtension, type ToolContext } from '../src/index.js';
import { captureLogger } from '../src/testing/captureLogger.js';
import { connect } from '../src/testing/index.js';
import { CLIENT_KINDS, connectClient, listen, textOf, type Listening, type TestClient } from './helpers/http.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

const tool = (name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({ name, description: `The ${name} tool.`, handler: () => `${name} ok`, ...extra });

/** A handler that never settles on its own, recording how its signal was aborted. */
function hanging() {
  const reasons: Array<Promise<unknown>> = [];
  const handler = (_args: unknown, ctx: ToolContext) => {
    reasons.push(new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason), { once: true })));
    return new Promise<never>(() => {});
  };
  return { handler, reasons };
}

/** A handler that blocks until the test releases it, telling the test once it is running. */
function gated() {
  let release!: () => void;
  let entered!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const running = new Promise<void>((resolve) => (entered = resolve));
  const handler = async () => {
    entered();
    await released;
    return 'released';
  };
  return { handler, release, running };
}

async function host(extensions: McpExtension[], options: HostOptions = {}): Promise<McpHost> {
  const built = await buildHost(extensions, { logger: silentLogger, ...options });
  cleanup.push(() => built.stop());
  return built;
}

async function serve(h: McpHost): Promise<Listening> {
  const served = await listen(createMcpApp(h));
  cleanup.push(() => served.close());
  return served;
}

async function client(kind: (typeof CLIENT_KINDS)[number], url: URL): Promise<TestClient> {
  const c = await connectClient(kind, url);
  cleanup.push(() => c.close());
  return c;
}

describe('tool time limits', () => {
  it('applies the host default (toolTimeoutMs) to a tool without its own, and a tool\'s timeoutMs over the default', async () => {
    const defaulted = hanging();
    const own = hanging();
    const h = await host(
      [defineExtension({ manifest: { name: 'slow', version: '1.0.0' }, tools: () => [tool('by_default', { handler: defaulted.handler }), tool('by_spec', { timeoutMs: 60, handler: own.handler })] })],
      { toolTimeoutMs: 25 },
    );
    const conn = await connect(h);
    try {
      const [a, b] = await Promise.all([conn.callTool('by_default'), conn.callTool('by_spec')]);
      expect(a).toEqual({ isError: true, content: [{ type: 'text', text: 'Tool "by_default" (extension "slow") timed out after 25 ms; the call was aborted.' }] });
      expect(b).toEqual({ isError: true, content: [{ type: 'text', text: 'Tool "by_spec" (extension "slow") timed out after 60 ms; the call was aborted.' }] });
      expect(String(await defaulted.reasons[0])).toContain('timed out after 25 ms');
      expect(String(await own.reasons[0])).toContain('timed out after 60 ms');
    } finally {
      await conn.close();
    }
  });

  it('a handler that first reads ctx.signal after its limit passed finds it aborted by the time-out; ctx.signal is ctx.mcpReq.signal', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const seen: Array<{ same: boolean; aborted: boolean; reason: string }> = [];
    const late = async (_args: unknown, ctx: ToolContext) => {
      // The signal is made when first read (a call whose handler never reads it pays for none).
      await released;
      seen.push({ same: ctx.signal === ctx.mcpReq.signal, aborted: ctx.signal.aborted, reason: String(ctx.signal.reason) });
      return 'too late';
    };
    const h = await host([defineExtension({ manifest: { name: 'slow', version: '1.0.0' }, tools: () => [tool('late', { timeoutMs: 20, handler: late })] })]);
    const conn = await connect(h);
    try {
      expect((await conn.callTool('late')).isError).toBe(true);
      release();
      await expect.poll(() => seen.length).toBe(1);
      expect(seen[0]).toEqual({ same: true, aborted: true, reason: expect.stringContaining('timed out after 20 ms') });
    } finally {
      await conn.close();
    }
  });

  it('with toolTimeoutMs: 0 leaves a call without its own limit unbounded, while a sibling with one is cut', async () => {
    const gate = gated();
    const cut = hanging();
    const h = await host(
      [defineExtension({ manifest: { name: 'slow', version: '1.0.0' }, tools: () => [tool('unbounded', { handler: gate.handler }), tool('bounded', { timeoutMs: 20, handler: cut.handler })] })],
      { toolTimeoutMs: 0 },
    );
    const conn = await connect(h);
    try {
      const unbounded = conn.callTool('unbounded');
      await gate.running;
      expect((await conn.callTool('bounded')).isError).toBe(true);
      gate.release();
      expect(await unbounded).toEqual({ content: [{ type: 'text', text: 'released' }] });
    } finally {
      await conn.close();
    }
  });

  it('a timed-out handler that settles later changes nothing: the connection keeps serving, the time-out is logged once', async () => {
    let finish!: (value: string) => void;
    const logger = captureLogger();
    const h = await host(
      [defineExtension({ manifest: { name: 'late', version: '1.0.0' }, tools: () => [tool('late', { timeoutMs: 20, handler: () => new Promise<string>((resolve) => (finish = resolve)) })] })],
      { logger },
    );
    const conn = await connect(h);
    try {
      expect((await conn.callTool('late')).isError).toBe(true);
      finish('too late');
      expect(await conn.toolNames()).toEqual(['late']);
      expect(logger.entries.filter((e) => e.fields.code === ErrorCodes.TOOL_TIMEOUT)).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });
});

describe('over HTTP, a slow or hanging call holds up nothing else', () => {
  function slowHost(options: HostOptions = {}) {
    const gate = gated();
    const hang = hanging();
    const extension = defineExtension({
      manifest: { name: 'slow', version: '1.0.0' },
      tools: () => [tool('block', { handler: gate.handler }), tool('hang', { timeoutMs: 100, handler: hang.handler }), tool('quick')],
    });
    return { gate, hang, h: host([extension], options) };
  }

  it('while one call blocks: the same session, other sessions of both eras and new sessions are served', async () => {
    const { gate, h } = slowHost();
    const served = await serve(await h);
    const [session, modern, v1] = await Promise.all(CLIENT_KINDS.map((kind) => client(kind, served.url('/mcp'))));
    const blocked = session!.callTool('block');
    await gate.running;
    let settled = false;
    void blocked.then(() => (settled = true));

    expect(textOf(await session!.callTool('quick'))).toBe('quick ok');
    expect(textOf(await modern!.callTool('quick'))).toBe('quick ok');
    expect(textOf(await v1!.callTool('quick'))).toBe('quick ok');
    const late = await client('v2 client, 2025 protocol', served.url('/mcp'));
    expect(textOf(await late.callTool('quick'))).toBe('quick ok');
    expect((await fetch(served.url('/healthz'))).status).toBe(200);
    expect(settled).toBe(false);

    gate.release();
    expect(textOf(await blocked)).toBe('released');
  });

  it.each(CLIENT_KINDS)('a hanging call answers isError at its limit with its signal aborted, and its connection keeps serving (%s)', async (kind) => {
    const { hang, h } = slowHost();
    const served = await serve(await h);
    const c = await client(kind, served.url('/mcp'));
    const bystander = await client('v1 client (sdk 1.32)', served.url('/mcp'));
    const [hung, quick] = await Promise.all([c.callTool('hang'), bystander.callTool('quick')]);
    expect(hung).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Tool "hang" (extension "slow") timed out after 100 ms; the call was aborted.' }] });
    expect(String(await hang.reasons[0])).toContain('timed out after 100 ms');
    expect(textOf(quick)).toBe('quick ok');
    expect(textOf(await c.callTool('quick'))).toBe('quick ok');
  });
});

describe('lifecycle hooks are bounded', () => {
  it('a hanging onServer costs its own action only: sessions of both eras still open on that selection', async () => {
    const logger = captureLogger();
    const h = await host(
      [
        defineExtension({ manifest: { name: 'plain', version: '1.0.0' }, tools: () => [tool('quick')] }),
        defineExtension({
          manifest: { name: 'hooked', version: '1.0.0' },
          toolsets: () => [{ name: 'hooked', default: false }],
          tools: () => [tool('hooked_tool')],
          onServer: () => new Promise<void>(() => {}),
        }),
      ],
      { logger, onServerTimeoutMs: 40 },
    );
    const served = await serve(h);
    for (const kind of CLIENT_KINDS) {
      const c = await client(kind, served.url('/mcp?hooked'));
      expect((await c.toolNames()).sort()).toEqual(['hooked_tool', 'quick']);
      expect(textOf(await c.callTool('hooked_tool'))).toBe('hooked_tool ok');
    }
    const failures = logger.entries.filter((e) => e.fields.code === ErrorCodes.ON_SERVER_FAILED);
    expect(failures.length).toBeGreaterThan(0);
    for (const entry of failures) {
      expect(entry.fields.extension).toBe('hooked');
      expect(entry.msg).toContain('did not finish within 40 ms');
    }
  });

  it('a hanging onStart at start-up fails that extension (START_FAILED) and buildHost returns', async () => {
    const logger = captureLogger();
    const h = await host(
      [
        defineExtension({ manifest: { name: 'plain', version: '1.0.0' }, tools: () => [tool('quick')] }),
        defineExtension({ manifest: { name: 'stuck', version: '1.0.0' }, tools: () => [tool('stuck_tool')], onStart: () => new Promise<void>(() => {}) }),
      ],
      { logger, onStartTimeoutMs: 30 },
    );
    expect(h.report().extensions.find((e) => e.name === 'stuck')?.state).toBe('failed');
    const logged = logger.entries.find((e) => e.fields.code === ErrorCodes.START_FAILED);
    expect(logged?.fields.extension).toBe('stuck');
    expect(logged?.msg).toContain('did not finish within 30 ms');
    expect((await h.build()).toolNames).toEqual(['quick']);
  });

  it('a held extension whose onStart hangs when a request wakes it: that request is answered, served around it', async () => {
    const h = await host(
      [
        defineExtension({ manifest: { name: 'plain', version: '1.0.0' }, tools: () => [tool('quick')] }),
        defineExtension({
          manifest: { name: 'lazy', version: '1.0.0', activationEvents: ['onToolset:lazy'] },
          toolsets: () => [{ name: 'lazy', default: false }],
          tools: () => [tool('lazy_tool')],
          onStart: () => new Promise<void>(() => {}),
        }),
      ],
      { onStartTimeoutMs: 30 },
    );
    const served = await serve(h);
    const c = await client('v2 client, 2026-07-28 protocol', served.url('/mcp?lazy'));
    expect(await c.toolNames()).toEqual(['quick']);
    expect(h.report().extensions.find((e) => e.name === 'lazy')?.state).toBe('failed');
    expect(h.report().problems).toContainEqual(expect.objectContaining({ extension: 'lazy', code: ErrorCodes.START_FAILED }));
  });

  it('a hanging onStop is cut at onStopTimeoutMs (STOP_FAILED) and the other onStop hooks still run', async () => {
    const logger = captureLogger();
    const stopped: string[] = [];
    const h = await buildHost(
      [
        defineExtension({ manifest: { name: 'first', version: '1.0.0' }, onStop: () => void stopped.push('first') }),
        defineExtension({ manifest: { name: 'stuck', version: '1.0.0' }, onStop: () => new Promise<void>(() => {}) }),
        defineExtension({ manifest: { name: 'last', version: '1.0.0' }, onStop: () => void stopped.push('last') }),
      ],
      { logger, onStopTimeoutMs: 30 },
    );
    await h.stop();
    expect(stopped).toEqual(['last', 'first']);
    const logged = logger.entries.find((e) => e.fields.code === ErrorCodes.STOP_FAILED);
    expect(logged?.fields.extension).toBe('stuck');
    expect(logged?.msg).toContain('did not finish within 30 ms');
  });
});
