/**
 * Tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28, SEP-2663)
 * on one node, over real HTTP with raw 2026-07-28 requests (the wire is what is
 * specified): a tool declares `task`, keeps one handler, and the host answers
 * `CreateTaskResult`, `tasks/get`, `tasks/update` and `tasks/cancel` — through
 * the same middleware and tool extensions as a call, for its owner only,
 * within its caps, its TTL and its signed ids.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  acceptedContent,
  buildHost,
  createMcpApp,
  createMemoryTaskStore,
  defineExtension,
  defineTool,
  inputRequired,
  silentLogger,
  type McpAppOptions,
  type McpHost,
  type Middleware,
  type TaskStore,
} from '../src/index.js';
import { listen, messagesOf, post, type Listening } from './helpers/http.js';
import { readSse, type SseReader } from './helpers/sse.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const KEY = 'a-test-request-state-key-of-more-than-32-bytes';

/** A promise and its resolver: the tests wait on these, never on time. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** One raw 2026-07-28 request (declaring the tasks extension unless `optIn: false`); answers the JSON-RPC response. */
async function rpc(url: URL, method: string, params: Record<string, unknown>, options: { optIn?: boolean; token?: string; elicitation?: boolean } = {}): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } }> {
  const capabilities = { ...(options.optIn === false ? {} : { extensions: { [TASKS]: {} } }), ...(options.elicitation === true ? { elicitation: { form: {} } } : {}) };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
  };
  const name = typeof params['taskId'] === 'string' ? params['taskId'] : typeof params['name'] === 'string' ? params['name'] : undefined;
  const response = await post(url, { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }, {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
    ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
  });
  const answer = (await messagesOf(response)).find((m) => 'result' in m || 'error' in m);
  if (!answer) throw new Error(`no answer to ${method} (HTTP ${response.status})`);
  return answer;
}

/** `tasks/get` until the task's status is one of `statuses` (each poll a full HTTP round trip; bounded). */
async function until(url: URL, taskId: string, statuses: readonly string[], token?: string): Promise<Record<string, unknown>> {
  for (let poll = 0; poll < 500; poll++) {
    const { result, error } = await rpc(url, 'tasks/get', { taskId }, { token });
    if (error) throw new Error(`tasks/get failed: ${error.message}`);
    if (statuses.includes(result!['status'] as string)) return result!;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`task ${taskId} never reached ${statuses.join(' or ')}`);
}

/** A raw 2026-07-28 `subscriptions/listen` for `taskIds`: the response and a reader of its stream (closed after the test). */
async function listenTasks(url: URL, taskIds: readonly string[], options: { optIn?: boolean; token?: string } = {}): Promise<{ response: Response; stream(): SseReader }> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': options.optIn === false ? {} : { extensions: { [TASKS]: {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
  };
  const response = await post(url, { jsonrpc: '2.0', id: 'sub-1', method: 'subscriptions/listen', params: { notifications: { taskIds }, _meta: meta } }, {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'subscriptions/listen',
    ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
  });
  const reading = new AbortController();
  streams.push(reading);
  return { response, stream: () => readSse(response, reading.signal) };
}
const streams: AbortController[] = [];

/** What the tools let the test see and steer. */
let gate = deferred();
let started = deferred();
let aborted = deferred<unknown>();
let progressed = deferred();
let progressedAgain = deferred();
let unblocked = deferred();
let middlewareSaw: string[] = [];
/** How many rounds of `confirm_wipe`'s handler ran. */
let wipeRounds = 0;

const worker = defineExtension({
  manifest: { name: 'worker', version: '1.0.0' },
  tools: () => [
    defineTool({
      name: 'crunch',
      description: 'Crunches numbers until the test lets it finish; a task when the client opts in.',
      inputSchema: { n: z.number() },
      task: 'optional',
      handler: async ({ n }, ctx) => {
        ctx.task?.status(`crunching ${n}`);
        ctx.signal.addEventListener('abort', () => aborted.resolve(ctx.signal.reason), { once: true });
        started.resolve();
        await Promise.race([gate.promise, new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))]);
        return `crunched ${n} (task ${ctx.task?.taskId ?? 'none'})`;
      },
    }),
    defineTool({
      name: 'confirm_wipe',
      description: 'Asks for a confirmation, then wipes; a task when the client opts in.',
      task: 'optional',
      handler: (_args, ctx) => {
        wipeRounds++;
        const answer = acceptedContent<{ ok?: boolean }>(ctx.mcpReq.inputResponses, 'confirm');
        if (answer === undefined) {
          return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Wipe?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }) }, requestState: 'asked' });
        }
        return ctx.mcpReq.requestState() === 'asked' && answer.ok === true ? 'wiped' : 'kept';
      },
    }),
    defineTool({
      name: 'progress_report',
      description: 'Reports progress (a count, then a message) and waits for the test; a task when the client opts in.',
      task: 'optional',
      handler: async (_args, ctx) => {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 'p', progress: 2, total: 5 } });
        progressed.resolve();
        await gate.promise;
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 'p', progress: 4, total: 5, message: 'four of five files read' } });
        progressedAgain.resolve();
        await unblocked.promise;
        return 'reported';
      },
    }),
    defineTool({
      name: 'chatty',
      description: 'Reports its status 1 000 times, quickly, then answers; a task when the client opts in.',
      task: 'optional',
      handler: async (_args, ctx) => {
        for (let i = 1; i <= 1000; i++) {
          ctx.task?.status(`status ${i}`);
          await new Promise((resolve) => setImmediate(resolve));
        }
        return 'chatted';
      },
    }),
    defineTool({
      name: 'guarded_import',
      description: 'Imports runs once the user confirms, asked before the task starts; a task when the client opts in.',
      inputSchema: { runs: z.number(), refuse: z.boolean().optional() },
      task: 'optional',
      beforeTask: ({ runs }, ctx) => {
        if (runs < 1) throw new Error(`there are no runs to import (runs: ${runs})`);
        if (acceptedContent<{ ok?: boolean }>(ctx.mcpReq.inputResponses, 'confirm') !== undefined) return undefined;
        return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Import?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }) }, requestState: 'asked' });
      },
      handler: ({ runs }, ctx) => {
        const answer = acceptedContent<{ ok?: boolean }>(ctx.mcpReq.inputResponses, 'confirm');
        return `imported ${runs} runs (confirmed: ${String(answer?.ok)}, state: ${String(ctx.mcpReq.requestState())}, task: ${ctx.task === undefined ? 'no' : 'yes'})`;
      },
    }),
    defineTool({
      name: 'big_result',
      description: 'Answers as many characters as asked; a task when the client opts in.',
      inputSchema: { size: z.number().int().min(0) },
      task: 'optional',
      handler: ({ size }) => 'x'.repeat(size),
    }),
    defineTool({ name: 'batch_only', description: 'Runs only as a task.', task: 'required', handler: () => 'batched' }),
    defineTool({ name: 'bad_result', description: 'A task whose result the protocol refuses.', task: 'optional', handler: () => ({ content: [{ type: 'no-such-content', text: 'x' }] }) }),
  ],
});

/** A tool extension and a middleware around the worker's tools: a task's work goes through both, as a call does. */
const auditor = defineExtension({
  manifest: { name: 'auditor', version: '1.0.0', dependencies: ['worker'] },
  toolExtensions: () => [['crunch', { wrap: (original) => async (args, ctx) => `[audited] ${String(await original(args, ctx))}` }]],
  middleware: () => [
    {
      name: 'recorder',
      async handle(call, next) {
        if (call.method === 'tools/call') middlewareSaw.push(`${call.name}@${call.tenant ?? '-'}`);
        // A policy: refuses guarded_import when asked to (a short-circuit, as a policy middleware answers).
        if (call.name === 'guarded_import' && call.arguments?.['refuse'] === true) return { content: [{ type: 'text', text: 'refused by policy' }], isError: true };
        return await next();
      },
    } satisfies Middleware,
  ],
});

const TOKENS: Record<string, { clientId: string; sub: string }> = { alice: { clientId: 'app', sub: 'alice' }, bob: { clientId: 'app', sub: 'bob' } };

let host: McpHost | undefined;
let served: Listening | undefined;
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.abort();
  gate.resolve();
  await served?.close();
  await host?.stop();
  served = undefined;
  host = undefined;
  gate = deferred();
  started = deferred();
  aborted = deferred<unknown>();
  unblocked.resolve();
  progressed = deferred();
  progressedAgain = deferred();
  unblocked = deferred();
  middlewareSaw = [];
  wipeRounds = 0;
});

async function serve(options: McpAppOptions = {}): Promise<URL> {
  host = await buildHost([worker, auditor], { logger: silentLogger, strict: true, requestStateKey: KEY });
  served = await listen(createMcpApp(host, { logger: silentLogger, ...options }));
  return served.url('/mcp');
}

const withAuth: McpAppOptions = {
  auth: {
    verifyAccessToken: (token) => {
      const who = TOKENS[token];
      if (!who) throw new Error('unknown token');
      return Promise.resolve({ token, clientId: who.clientId, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: who.sub } });
    },
  },
};

describe('tasks (2026-07-28, io.modelcontextprotocol/tasks)', () => {
  it('are advertised, and a call that opted in gets a CreateTaskResult, then working with the tool’s status, then completed', async () => {
    const url = await serve();
    const discovered = await rpc(url, 'server/discover', {});
    expect((discovered.result!['capabilities'] as { extensions?: unknown }).extensions).toEqual({ [TASKS]: {} });

    const created = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 7 } })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(Object.keys(created)).not.toEqual(expect.arrayContaining(['content']));
    for (const absent of ['content', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval']) expect(created).not.toHaveProperty(absent);
    expect(new Date(created['createdAt'] as string).toISOString()).toBe(created['createdAt']);
    const taskId = created['taskId'] as string;

    await started.promise;
    const working = await until(url, taskId, ['working']);
    expect(working).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    expect(working).not.toHaveProperty('result');

    gate.resolve();
    const done = await until(url, taskId, ['completed']);
    // The tool extension wrapped the task's work, and the middleware saw it, as for a call.
    expect(done['result']).toEqual({ resultType: 'complete', content: [{ type: 'text', text: `[audited] crunched 7 (task ${taskId})` }] });
    expect(middlewareSaw).toEqual(['crunch@-']);
    // Cancelling a finished task is acknowledged and changes nothing.
    expect((await rpc(url, 'tasks/cancel', { taskId })).result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect((await rpc(url, 'tasks/get', { taskId })).result!['status']).toBe('completed');
  });

  it('report the tool’s ctx.task.status() as the statusMessage while working', async () => {
    const url = await serve();
    const taskId = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 3 } })).result!['taskId'] as string;
    await started.promise;
    expect((await until(url, taskId, ['working']))['statusMessage']).toBe('crunching 3');
  });

  it('park in input_required with the tool’s input requests, refuse tasks/update before that, and resume with the answers', async () => {
    const url = await serve();
    const taskId = (await rpc(url, 'tools/call', { name: 'confirm_wipe', arguments: {} })).result!['taskId'] as string;
    const waiting = await until(url, taskId, ['input_required']);
    const keys = Object.keys(waiting['inputRequests'] as object);
    expect(keys).toEqual(['1.confirm']);
    expect((waiting['inputRequests'] as Record<string, { method: string }>)['1.confirm']!.method).toBe('elicitation/create');

    const ack = await rpc(url, 'tasks/update', { taskId, inputResponses: { '1.confirm': { action: 'accept', content: { ok: true } } } });
    expect(ack.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(ack.result).not.toHaveProperty('status');
    const done = await until(url, taskId, ['completed']);
    // The second round had the answer and the (host-sealed) requestState of the first.
    expect(done['result']).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'wiped' }] });

    // A task that is not waiting for input: tasks/update is refused, saying why.
    const refused = await rpc(url, 'tasks/update', { taskId, inputResponses: { '1.confirm': { action: 'accept', content: { ok: true } } } });
    expect(refused.error).toMatchObject({ code: -32602, data: { reason: 'not_waiting_for_input', status: 'completed' } });
    expect(refused.error!.message).toContain('not waiting for input');
  });

  it('cancel: tasks/cancel aborts the handler’s signal and the task settles as cancelled', async () => {
    const url = await serve();
    const taskId = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 1 } })).result!['taskId'] as string;
    await started.promise;
    const ack = await rpc(url, 'tasks/cancel', { taskId });
    expect(ack.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(String(await aborted.promise)).toContain('cancelled');
    const cancelled = (await rpc(url, 'tasks/get', { taskId })).result!;
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled).not.toHaveProperty('result');
  });

  it('a task cancelled while its answers are being taken runs no further round of its handler (it stays cancelled)', async () => {
    // The race, made certain: the cancel lands in the store just before the engine records "working" again.
    const inner = createMemoryTaskStore();
    const store: TaskStore = {
      ...inner,
      name: inner.name,
      async update(taskId, patch) {
        if (patch.status === 'working') {
          const current = (await inner.get(taskId, JSON.stringify([null, null])))!;
          await inner.cancel(current.taskId, current.owner);
        }
        return await inner.update(taskId, patch);
      },
    };
    const url = await serve({ tasks: { store } });
    const taskId = (await rpc(url, 'tools/call', { name: 'confirm_wipe', arguments: {} })).result!['taskId'] as string;
    await until(url, taskId, ['input_required']);
    expect(wipeRounds).toBe(1);
    expect((await rpc(url, 'tasks/update', { taskId, inputResponses: { '1.confirm': { action: 'accept', content: { ok: true } } } })).result).toMatchObject({ resultType: 'complete' });
    expect((await until(url, taskId, ['cancelled', 'completed']))['status']).toBe('cancelled');
    // Let every callback queued by the answer run, then look: no second round, nothing left running.
    await new Promise((resolve) => setImmediate(resolve));
    const health = (await (await fetch(new URL('/healthz', url))).json()) as { tasks: { running: number } };
    expect(health.tasks.running).toBe(0);
    expect(wipeRounds).toBe(1);
    expect((await rpc(url, 'tasks/get', { taskId })).result!['status']).toBe('cancelled');
    // And once cancelled, tasks/update is refused: nothing waits for input.
    expect((await rpc(url, 'tasks/update', { taskId, inputResponses: { '1.confirm': { action: 'accept', content: { ok: true } } } })).error).toMatchObject({ data: { reason: 'not_waiting_for_input', status: 'cancelled' } });
    expect(wipeRounds).toBe(1);
  });

  it('beforeTask: asks its input in the call (no task yet), then the task starts and its handler sees those answers; middleware wraps each round', async () => {
    const url = await serve();
    // Asked in the call, input needs the client's own capability for it (a task's input requests are held for tasks/update instead).
    const asked = await rpc(url, 'tools/call', { name: 'guarded_import', arguments: { runs: 3 } }, { elicitation: true });
    expect(asked.error).toBeUndefined();
    const first = asked.result!;
    // Not a task: the call's own input-required answer, with a host-sealed requestState.
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    expect(first).not.toHaveProperty('taskId');
    const health = async () => ((await (await fetch(new URL('/healthz', url))).json()) as { tasks: { running: number } }).tasks.running;
    expect(await health()).toBe(0);

    const retry = { name: 'guarded_import', arguments: { runs: 3 }, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: first['requestState'] };
    const created = (await rpc(url, 'tools/call', retry, { elicitation: true })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await until(url, created['taskId'] as string, ['completed', 'failed']);
    // The task's handler saw the answers and requestState given before the task existed.
    expect(done['result']).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'imported 3 runs (confirmed: true, state: asked, task: yes)' }] });
    // Middleware wrapped each round as a call: the prelude's two rounds (asking, then going on) in the call, then the task's one.
    expect(middlewareSaw).toEqual(['guarded_import@-', 'guarded_import@-', 'guarded_import@-']);
  });

  it('beforeTask: a middleware refusing the call (or beforeTask throwing) answers the error in the call and starts no task', async () => {
    const store = createMemoryTaskStore();
    const url = await serve({ tasks: { store } });
    const refused = (await rpc(url, 'tools/call', { name: 'guarded_import', arguments: { runs: 1, refuse: true } })).result!;
    expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: 'refused by policy' }] });
    expect(refused).not.toHaveProperty('taskId');
    const threw = (await rpc(url, 'tools/call', { name: 'guarded_import', arguments: { runs: 0 } })).result!;
    expect(threw).toMatchObject({ isError: true, content: [{ type: 'text', text: 'there are no runs to import (runs: 0)' }] });
    expect(threw).not.toHaveProperty('taskId');
    expect(await store.counts()).toEqual({ total: 0, active: 0 });
  });

  it('a protocol error in the task’s work fails the task with that JSON-RPC error', async () => {
    const url = await serve();
    const taskId = (await rpc(url, 'tools/call', { name: 'bad_result', arguments: {} })).result!['taskId'] as string;
    const failed = await until(url, taskId, ['failed', 'completed']);
    expect(failed['status']).toBe('failed');
    expect(failed['error']).toMatchObject({ code: -32602 });
    expect(failed).not.toHaveProperty('result');
  });

  it('without the opt-in: an optional tool answers in the call, a required one is refused with -32021, and tasks/* are refused with -32021', async () => {
    const url = await serve();
    gate.resolve();
    const sync = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 2 } }, { optIn: false })).result!;
    expect(sync).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: '[audited] crunched 2 (task none)' }] });
    const required = await rpc(url, 'tools/call', { name: 'batch_only', arguments: {} }, { optIn: false });
    expect(required.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    expect(required.error!.message).toContain('batch_only');
    for (const method of ['tasks/get', 'tasks/cancel']) expect((await rpc(url, method, { taskId: 'x.y' }, { optIn: false })).error?.code, method).toBe(-32021);
    expect((await rpc(url, 'tasks/update', { taskId: 'x.y', inputResponses: {} }, { optIn: false })).error?.code).toBe(-32021);
  });

  it('another principal’s tasks/get, tasks/update and tasks/cancel answer as for an unknown task', async () => {
    const url = await serve(withAuth);
    const taskId = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 5 } }, { token: 'alice' })).result!['taskId'] as string;
    await started.promise;
    // Another nonce (its last character changed: were it kept at random, 1 run in 64 would ask for the task itself).
    const nonce = taskId.split('.')[0]!;
    const unknown = (await rpc(url, 'tasks/get', { taskId: `${nonce.slice(0, -1)}${nonce.endsWith('A') ? 'B' : 'A'}.${taskId.split('.')[1]}` }, { token: 'alice' })).error;
    for (const [method, params] of [['tasks/get', { taskId }], ['tasks/cancel', { taskId }], ['tasks/update', { taskId, inputResponses: {} }]] as const) {
      const answer = await rpc(url, method, params, { token: 'bob' });
      expect(answer.error, method).toEqual(unknown);
    }
    expect(unknown).toEqual({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    // Bob's cancel did nothing: Alice's task still works.
    expect((await rpc(url, 'tasks/get', { taskId }, { token: 'alice' })).result!['status']).toBe('working');
  });

  it('refuse a tampered or made-up task id', async () => {
    const url = await serve();
    const taskId = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 9 } })).result!['taskId'] as string;
    const [nonce, tag] = taskId.split('.') as [string, string];
    const flipped = `${nonce}.${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [flipped, nonce, 'conformance-nonexistent-12345', `${nonce}.${tag}.extra`]) {
      expect((await rpc(url, 'tasks/get', { taskId: forged })).error, forged).toEqual({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    }
  });

  it('cap the live tasks per principal and in total, with a clear error', async () => {
    const url = await serve({ tasks: { maxPerPrincipal: 1, maxTotal: 2 }, ...withAuth });
    expect((await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 1 } }, { token: 'alice' })).result!['resultType']).toBe('task');
    const second = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 2 } }, { token: 'alice' })).error!;
    expect(second).toMatchObject({ code: -32000, data: { reason: 'task_limit', limit: 'principal', max: 1 } });
    expect(second.message).toMatch(/Task limit reached: tool "crunch" was not started because this principal already holds 1 live tasks \(at most 1\)/);
    expect((await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 3 } }, { token: 'bob' })).result!['resultType']).toBe('task');
    TOKENS['carol'] = { clientId: 'app', sub: 'carol' };
    try {
      expect((await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 4 } }, { token: 'carol' })).error).toMatchObject({ code: -32000, data: { limit: 'total', max: 2 } });
    } finally {
      delete TOKENS['carol'];
    }
  });

  it('bound anonymous callers by the total cap only: they are no one in particular, so one of them cannot exhaust a per-principal cap for all', async () => {
    const url = await serve({ tasks: { maxPerPrincipal: 1, maxTotal: 3 } });
    for (const n of [1, 2, 3]) expect((await rpc(url, 'tools/call', { name: 'crunch', arguments: { n } })).result!['resultType'], `task ${n}`).toBe('task');
    const refused = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 4 } })).error!;
    expect(refused).toMatchObject({ code: -32000, data: { reason: 'task_limit', limit: 'total', max: 3 } });
    expect(refused.message).toContain('the server holds 3 live tasks (at most 3)');
  });

  it('bound the result a task keeps in bytes (tasks.maxResultBytes): a larger one fails the task, naming the tool and the limit', async () => {
    const url = await serve({ tasks: { maxResultBytes: 2_000 } });
    const small = (await rpc(url, 'tools/call', { name: 'big_result', arguments: { size: 1_000 } })).result!['taskId'] as string;
    expect((await until(url, small, ['completed', 'failed']))['status']).toBe('completed');
    const large = (await rpc(url, 'tools/call', { name: 'big_result', arguments: { size: 5_000 } })).result!['taskId'] as string;
    const failed = await until(url, large, ['completed', 'failed']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, data: { reason: 'result_too_large', max: 2_000 } } });
    expect(failed).not.toHaveProperty('result');
    const error = failed['error'] as { message: string; data: { bytes: number } };
    expect(error.data.bytes).toBeGreaterThan(5_000);
    expect(error.message).toBe(`Tool "big_result" returned a result of ${error.data.bytes} bytes, more than a task keeps (2000 bytes, createMcpApp's tasks.maxResultBytes): return less (a resource link to the data, a page of it), or raise the limit`);
    expect(failed['statusMessage']).toContain('Tool "big_result" failed: Tool "big_result" returned a result of');
    expect(() => createMcpApp(host!, { logger: silentLogger, tasks: { maxResultBytes: 0 } })).toThrow(/tasks\.maxResultBytes/);
  });

  it('forget a task after its TTL: tasks/get then answers -32602', async () => {
    let clock = Date.now();
    const store: TaskStore = createMemoryTaskStore({ now: () => clock });
    const url = await serve({ tasks: { store, ttlMs: 60_000 } });
    const created = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 1 } })).result!;
    expect(created['ttlMs']).toBe(60_000);
    const taskId = created['taskId'] as string;
    expect((await rpc(url, 'tasks/get', { taskId })).result!['status']).toBe('working');
    clock += 120_000; // past createdAt (read from the real clock a moment after `clock` was) + ttlMs
    expect((await rpc(url, 'tasks/get', { taskId })).error).toEqual({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    expect(await store.counts()).toEqual({ total: 0, active: 0 });
  });

  it('let go of a task waiting for input when its TTL ends (no run, watcher or context held on)', async () => {
    const url = await serve({ tasks: { ttlMs: 300 } });
    const taskId = (await rpc(url, 'tools/call', { name: 'confirm_wipe', arguments: {} })).result!['taskId'] as string;
    await until(url, taskId, ['input_required']);
    const running = async () => ((await (await fetch(new URL('/healthz', url))).json()) as { tasks: { running: number } }).tasks.running;
    expect(await running()).toBe(1);
    // The TTL timer fires at 300 ms; the record is gone from the store and the run from this node.
    await vi.waitFor(async () => expect(await running()).toBe(0), { timeout: 5_000, interval: 50 });
    expect((await rpc(url, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
  });

  it('refuse a TTL a timer cannot hold', async () => {
    await serve();
    expect(() => createMcpApp(host!, { logger: silentLogger, tasks: { ttlMs: 2 ** 31 } })).toThrow(/tasks\.ttlMs/);
  });

  it('/healthz names the task store; tasks: false turns the extension off', async () => {
    const url = await serve();
    const health = (await (await fetch(new URL('/healthz', url))).json()) as { tasks?: unknown };
    expect(health.tasks).toEqual({ store: 'memory', running: 0 });
    await served!.close();
    served = await listen(createMcpApp(host!, { logger: silentLogger, tasks: false }));
    const off = served.url('/mcp');
    expect(((await rpc(off, 'server/discover', {})).result!['capabilities'] as { extensions?: unknown }).extensions).toBeUndefined();
    gate.resolve();
    expect((await rpc(off, 'tools/call', { name: 'crunch', arguments: { n: 1 } })).result!['resultType']).toBe('complete');
  });

  it('refuse a task secret shorter than 32 bytes', async () => {
    host = await buildHost([worker], { logger: silentLogger });
    expect(() => createMcpApp(host!, { tasks: { secret: 'short' } })).toThrow(/tasks\.secret.*shorter than 32 bytes/);
  });

  it('notifications/tasks: a subscriptions/listen naming taskIds acks the caller’s own tasks, pushes each one’s DetailedTask on every change, and ends once all are terminal', async () => {
    const url = await serve(withAuth);
    const mine = (await rpc(url, 'tools/call', { name: 'crunch', arguments: { n: 4 } }, { token: 'alice' })).result!['taskId'] as string;
    await started.promise;
    gate.resolve();
    const asking = (await rpc(url, 'tools/call', { name: 'confirm_wipe', arguments: {} }, { token: 'alice' })).result!['taskId'] as string;
    const bobs = (await rpc(url, 'tools/call', { name: 'confirm_wipe', arguments: {} }, { token: 'bob' })).result!['taskId'] as string;
    await until(url, mine, ['completed'], 'alice');
    await until(url, asking, ['input_required'], 'alice');

    const { response, stream: open } = await listenTasks(url, [mine, asking, bobs, 'made.up'], { token: 'alice' });
    const stream = open();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    // Bob's task and a made-up id are left out of the ack, as if they did not exist.
    expect(await stream.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [mine, asking] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
    });
    // Each task's state now, identical to tasks/get (less its resultType).
    const first = (await stream.next())['params'] as Record<string, unknown>;
    const { resultType: _, ...completedNow } = (await rpc(url, 'tasks/get', { taskId: mine }, { token: 'alice' })).result!;
    expect(first).toEqual({ ...completedNow, _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } });
    expect(first['result']).toEqual({ resultType: 'complete', content: [{ type: 'text', text: `[audited] crunched 4 (task ${mine})` }] });
    const waiting = await stream.next();
    expect(waiting).toMatchObject({ method: 'notifications/tasks', params: { taskId: asking, status: 'input_required', inputRequests: { '1.confirm': { method: 'elicitation/create' } } } });

    // A change is pushed as it happens: the answer moves the task on to completed, then the stream ends.
    await rpc(url, 'tasks/update', { taskId: asking, inputResponses: { '1.confirm': { action: 'accept', content: { ok: true } } } }, { token: 'alice' });
    const seen: string[] = [];
    for (;;) {
      const next = await stream.next();
      if (next['method'] === 'notifications/tasks') {
        expect((next['params'] as { taskId: string }).taskId).toBe(asking);
        seen.push((next['params'] as { status: string }).status);
        continue;
      }
      // The graceful close: the listen's own empty result.
      expect(next).toEqual({ jsonrpc: '2.0', id: 'sub-1', result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } } });
      break;
    }
    expect(seen.at(-1), seen.join()).toBe('completed');
    // On the way: input_required with every request answered (as tasks/get would show it), then working.
    expect(seen.slice(0, -1), seen.join()).toContain('working');
    expect(seen.every((status) => ['input_required', 'working', 'completed'].includes(status)), seen.join()).toBe(true);
    await expect(stream.next()).rejects.toThrow(/stream ended/);
  });

  it('notifications/tasks: without the opt-in the listen is refused with -32021; bad taskIds with -32602; no task of the caller’s acks an empty list and ends', async () => {
    const url = await serve();
    const refused = (await messagesOf((await listenTasks(url, ['a.b'], { optIn: false })).response))[0]!;
    expect(refused['error']).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    const bad = (await messagesOf((await listenTasks(url, Array.from({ length: 101 }, (_, i) => `t${i}`))).response))[0]!;
    expect(bad['error']).toMatchObject({ code: -32602 });
    const stream = (await listenTasks(url, ['made.up'])).stream();
    expect(await stream.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [] } } });
    expect(await stream.next()).toMatchObject({ id: 'sub-1', result: { resultType: 'complete' } });
  });

  it('notifications/tasks: a stream whose tasks expire (their TTL past, never finished) ends as when all are terminal', async () => {
    const url = await serve({ tasks: { ttlMs: 400 } });
    const taskId = (await rpc(url, 'tools/call', { name: 'confirm_wipe', arguments: {} })).result!['taskId'] as string;
    await until(url, taskId, ['input_required']);
    const stream = (await listenTasks(url, [taskId])).stream();
    expect(await stream.next()).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [taskId] } } });
    expect(await stream.next()).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'input_required' } });
    // Nobody answers: at 400 ms the task is gone, and the stream ends with the listen's result (bounded here, so a stream
    // left open fails the test with a message rather than at the test's timeout).
    let bound: NodeJS.Timeout | undefined;
    const ended = await Promise.race([stream.next(), new Promise<'still open'>((resolve) => (bound = setTimeout(() => resolve('still open'), 5_000)))]);
    clearTimeout(bound);
    expect(ended).toEqual({ jsonrpc: '2.0', id: 'sub-1', result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } } });
    expect((await rpc(url, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
  });

  it('coalesce a task’s status writes: 1 000 quick statuses reach the store as a handful, the last one lands, and the terminal write is never overtaken', async () => {
    // A store that is slow to write (a few turns of the event loop, as a network store is) and logs what it is asked.
    const inner = createMemoryTaskStore();
    const log: Array<{ patch: string; inFlight: number }> = [];
    let inFlight = 0;
    const store: TaskStore = {
      ...inner,
      name: inner.name,
      async update(taskId, patch) {
        log.push({ patch: patch.status ?? `status-only: ${patch.statusMessage}`, inFlight });
        inFlight++;
        try {
          for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
          return await inner.update(taskId, patch);
        } finally {
          inFlight--;
        }
      },
    };
    const url = await serve({ tasks: { store } });
    const taskId = (await rpc(url, 'tools/call', { name: 'chatty', arguments: {} })).result!['taskId'] as string;
    // Polled gently (a tight poll loop would slow the handler's 1 000 event-loop turns down, not change the outcome).
    let done: Record<string, unknown> = {};
    await vi.waitFor(
      async () => {
        done = (await rpc(url, 'tasks/get', { taskId })).result!;
        expect(['completed', 'failed']).toContain(done['status']);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(done).toMatchObject({ status: 'completed', statusMessage: 'The task completed.', result: { content: [{ type: 'text', text: 'chatted' }] } });
    const statusWrites = log.filter((entry) => entry.patch.startsWith('status-only'));
    // 1 000 reports over ~100 ms of event-loop turns: one write per 200 ms at most, plus the last one drained.
    expect(statusWrites.length, `${statusWrites.length} status writes, then ${log.at(-1)!.patch}`).toBeLessThanOrEqual(10);
    expect(statusWrites.at(-1)!.patch).toBe('status-only: status 1000');
    // The terminal write came last, and nothing else was in flight when it was sent.
    expect(log.at(-1)).toEqual({ patch: 'completed', inFlight: 0 });
  });

  it('turn the tool’s progress notifications into the task’s statusMessage (a count, or the message when there is one)', async () => {
    const url = await serve();
    const taskId = (await rpc(url, 'tools/call', { name: 'progress_report', arguments: {} })).result!['taskId'] as string;
    await progressed.promise;
    expect((await until(url, taskId, ['working']))['statusMessage']).toBe('Progress: 2 of 5');
    gate.resolve();
    await progressedAgain.promise;
    // Status writes are coalesced (at most one per 200 ms): the newer message lands soon after, not at once.
    await vi.waitFor(async () => expect((await until(url, taskId, ['working']))['statusMessage']).toBe('four of five files read'), { timeout: 5_000, interval: 20 });
    unblocked.resolve();
    expect((await until(url, taskId, ['completed']))['result']).toMatchObject({ content: [{ type: 'text', text: 'reported' }] });
  });
});
