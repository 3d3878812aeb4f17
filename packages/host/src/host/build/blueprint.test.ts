/**
 * What a served tool's handler is given: the SDK's context with the call's
 * own `signal`, the serving extension and the active toolsets.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeNowOf, serveTool } from './blueprint.js';
import { servedAlias } from './toolAlias.js';
import { silentLogger } from '../../kernel/logger.js';
import { ProblemLog } from '../../kernel/problems.js';
import { EMPTY_SELECTION } from '../../selection/selection.js';
import { createStats } from '../../kernel/stats.js';
import type { ToolContext } from '../../contract/tool.js';

const options = { logger: silentLogger, problems: new ProblemLog(), toolTimeoutMs: undefined, stats: createStats() };
const connection = { selection: EMPTY_SELECTION, toolsets: new Set(['files']), tenant: undefined };

/** An SDK handler context as `buildContext` makes one (the fields and their order). */
function sdkContext(controller: AbortController): ServerContext {
  return {
    sessionId: undefined,
    mcpReq: {
      id: 7,
      method: 'tools/call',
      _meta: undefined,
      envelope: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      requestState: () => undefined,
      signal: controller.signal,
      send: () => Promise.reject(new Error('not here')),
      notify: () => Promise.resolve(),
      log: () => Promise.resolve(),
      elicitInput: () => Promise.reject(new Error('not here')),
      requestSampling: () => Promise.reject(new Error('not here')),
    },
    http: { req: new Request('http://localhost/mcp', { method: 'POST' }), closeSSE: undefined, closeStandaloneSSE: undefined },
  };
}

/** Each own property: its key, and whether it is a value or a getter, enumerable, configurable. */
function shape(object: object): string[] {
  return Reflect.ownKeys(object).map((key) => {
    const d = Object.getOwnPropertyDescriptor(object, key)!;
    return `${String(key)}:${d.get ? 'get' : typeof d.value}:${String(d.enumerable)}:${String(d.configurable)}:${String(d.writable ?? '-')}`;
  });
}

describe('a served tool’s handler context', () => {
  it('is the SDK’s context, key for key and in order, with the call’s signal, the extension and the toolsets added', async () => {
    let seen: ToolContext | undefined;
    const tool = serveTool({ name: 'read', description: 'Reads.', inputSchema: { path: z.string() }, handler: (_args, ctx) => ((seen = ctx), 'ok') }, 'files-ext', options);
    const controller = new AbortController();
    const sdkCtx = sdkContext(controller);
    await tool.invoke({ path: 'a' }, sdkCtx, connection);
    if (!seen) throw new Error('the handler did not run');

    // What the spread literal this replaced makes: the reference for every key, getter and order.
    const reference = {
      ...sdkCtx,
      mcpReq: {
        ...sdkCtx.mcpReq,
        get signal() {
          return controller.signal;
        },
      },
      extension: 'files-ext',
      toolsets: connection.toolsets,
      get signal() {
        return controller.signal;
      },
    };
    // Beside them, under a symbol key (no Object.keys, for…in or JSON shows it), the call its shared `signal` getter reads.
    const withCall = (keys: string[]) => [...keys, 'Symbol(reactor.call):object:true:true:true'];
    expect(shape(seen)).toEqual(withCall(shape(reference)));
    expect(shape(seen.mcpReq)).toEqual(withCall(shape(reference.mcpReq)));
    expect(Object.keys({ ...seen })).toEqual(Object.keys(reference));
    expect(seen.extension).toBe('files-ext');
    expect(seen.toolsets).toBe(connection.toolsets);
    expect(seen.http).toBe(sdkCtx.http);
    expect(seen.mcpReq.id).toBe(7);
    expect(seen.mcpReq.envelope).toBe(sdkCtx.mcpReq.envelope);
  });

  it('shares one `signal` getter among all calls: a getter made per call kept each call alive through young-generation collections on Node 20', async () => {
    const getters: unknown[] = [];
    const tool = serveTool(
      {
        name: 'read',
        description: 'Reads.',
        handler: (_args, ctx) => {
          getters.push(Object.getOwnPropertyDescriptor(ctx, 'signal')?.get, Object.getOwnPropertyDescriptor(ctx.mcpReq, 'signal')?.get);
          return 'ok';
        },
      },
      'files-ext',
      options,
    );
    await tool.invoke({}, sdkContext(new AbortController()), connection);
    await tool.invoke({}, sdkContext(new AbortController()), connection);
    expect(getters).toHaveLength(4);
    expect(typeof getters[0]).toBe('function');
    expect(new Set(getters).size).toBe(1);
  });

  it('gives a signal that follows the request’s, read during the call or after it aborted', async () => {
    const controller = new AbortController();
    let signals: [AbortSignal, AbortSignal] | undefined;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tool = serveTool(
      {
        name: 'wait',
        description: 'Waits.',
        handler: async (_args, ctx) => {
          signals = [ctx.signal, ctx.mcpReq.signal];
          await held;
          return 'done';
        },
      },
      'files-ext',
      options,
    );
    const running = tool.invoke({}, sdkContext(controller), connection);
    await Promise.resolve();
    await Promise.resolve();
    if (!signals) throw new Error('the handler did not run');
    expect(signals[0]).toBe(signals[1]);
    expect(signals[0].aborted).toBe(false);
    controller.abort(new Error('client gone'));
    expect(signals[0].aborted).toBe(true);
    release();
    await running;
  });
});

describe('a served tool’s call, answered at once when it can be', () => {
  const invokeNow = (tool: ReturnType<typeof serveTool>, args: unknown) => {
    const now = invokeNowOf(tool);
    if (!now) throw new Error('a served tool answers at once when it can');
    return now(args, sdkContext(new AbortController()), connection);
  };

  it('answers a synchronous handler’s call at once, not as a promise: no turn of the microtask queue', () => {
    const tool = serveTool({ name: 'echo', description: 'Echoes.', inputSchema: { text: z.string() }, handler: ({ text }) => `said ${String(text)}` }, 'files-ext', options);
    expect(invokeNow(tool, { text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'said hi' }] });
  });

  it('answers refused arguments and a synchronous throw at once too, as invoke answers them', async () => {
    const problems = new ProblemLog();
    const tool = serveTool(
      {
        name: 'strict',
        description: 'Refuses.',
        inputSchema: { n: z.number() },
        handler: () => {
          throw new Error('broken');
        },
      },
      'files-ext',
      { ...options, problems },
    );
    const refused = invokeNow(tool, { n: 'x' });
    expect(refused).not.toBeInstanceOf(Promise);
    expect(refused).toEqual(await tool.invoke({ n: 'x' }, sdkContext(new AbortController()), connection));
    expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('Input validation error') as string }] });
    const thrown = invokeNow(tool, { n: 1 });
    expect(thrown).toEqual({ isError: true, content: [{ type: 'text', text: 'broken' }] });
    // The failure is reported as any handler's throw is.
    expect(problems.list().map((p) => p.code)).toContain('REACTOR_TOOL_FAILED');
  });

  it('settles the call of a synchronous handler as it returns: a signal read afterwards no longer follows the request', () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const tool = serveTool({ name: 'peek', description: 'Peeks.', handler: (_args, ctx) => ((signal = ctx.signal), 'ok') }, 'files-ext', options);
    void invokeNowOf(tool)?.({}, sdkContext(controller), connection);
    controller.abort(new Error('after the answer'));
    expect(signal?.aborted).toBe(false);
  });

  it('gives a promise when the handler answers later, and keeps its time limit then', async () => {
    const tool = serveTool({ name: 'slow', description: 'Waits.', timeoutMs: 20, handler: () => new Promise<string>(() => undefined) }, 'files-ext', options);
    const later = invokeNow(tool, {});
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toEqual({ isError: true, content: [{ type: 'text', text: 'Tool "slow" (extension "files-ext") timed out after 20 ms; the call was aborted.' }] });
  });

  it('gives a promise when the output check answers later, with the check’s verdict', async () => {
    const checkedLater = z.object({ n: z.string() }).refine(async (value) => Promise.resolve(value.n.length > 5), 'n must be longer');
    const tool = serveTool({ name: 'shaped', description: 'Shapes.', outputSchema: checkedLater, handler: () => ({ n: 'one' }) }, 'files-ext', options);
    const later = invokeNow(tool, {});
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('n must be longer') as string }] });
  });

  it('has no at-once form for a copy with an invoke of its own (an alias), whose invoke then runs', async () => {
    const tool = serveTool({ name: 'get_run', description: 'Gets.', handler: () => 'a run' }, 'files-ext', options);
    const alias = servedAlias(tool, 'fetch_run', silentLogger);
    expect(invokeNowOf(tool)).toBeTypeOf('function');
    expect(invokeNowOf(alias)).toBeUndefined();
    expect((await alias.invoke({}, sdkContext(new AbortController()), connection))._meta).toHaveProperty(['reactor/deprecated-name', 'use'], 'get_run');
  });
});
