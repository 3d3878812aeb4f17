/**
 * MCP tasks end to end (`io.modelcontextprotocol/tasks`, 2026-07-28), driven
 * by a client nobody here wrote: `@modelcontextprotocol/ext-tasks`'s task
 * session on a real SDK v2 client, over real HTTP, against the demo — kernels
 * on a real Jupyter Server the demo starts on loopback.
 *
 * - kernels' `execute_code` runs as a task: the client polls `tasks/get`
 *   (routed by its `Mcp-Name` header, the task id) until it settles, and
 *   reads the output from the task's result;
 * - a long `time.sleep` loop is cancelled with `tasks/cancel` once its status
 *   says it printed: the task ends `cancelled` and the kernel was interrupted
 *   (the loop caught the KeyboardInterrupt, and the kernel answers the next
 *   run at once);
 * - spaces' `search_text` over a whole space runs as a task too;
 * - a task that asks for input (a test-only extension: no first-party tool
 *   asks the user anything) is answered through the client's input routing
 *   (`tasks/update`) and completes with the answer.
 *
 * Needs Debian's python3-jupyter-server and python3-ipykernel: the demo fails
 * to serve kernels (and this test loudly) without them.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApplicationInputHandler, resultFromTaskOutcome, type TaskView } from '@modelcontextprotocol/ext-tasks/client';
import { acceptedContent, defineExtension, defineTool, inputRequired, type RunningCommand } from '@reactor/host';
import { SAMPLE_ROOT } from '@reactor/ext-spaces';
import { runDemoOver } from './helpers/runDemo.js';
import { connectTasksClient, type TasksClient } from './helpers/tasksClient.js';

/** A test-only extension whose one tool asks the user before it acts, and may run as a task. */
const approvals = defineExtension({
  manifest: { name: 'approvals', version: '1.0.0' },
  toolsets: () => [{ name: 'approvals', description: 'Asks before it acts (a test-only toolset).', default: false }],
  tools: () => [
    defineTool({
      toolset: 'approvals',
      name: 'archive_space',
      description: 'Archive a space once the user confirms.',
      inputSchema: { space: z.string() },
      task: 'optional',
      handler: ({ space }, ctx) => {
        const answer = acceptedContent<{ confirm?: boolean }>(ctx.mcpReq.inputResponses, 'confirm');
        if (answer === undefined) {
          ctx.task?.status(`waiting for the user to confirm archiving ${space}`);
          return inputRequired({
            inputRequests: {
              confirm: inputRequired.elicit({ message: `Archive ${space}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } }),
            },
          });
        }
        return answer.confirm === true ? `archived ${space}` : `kept ${space}`;
      },
    }),
  ],
});

const NOTEBOOK = { space: 'climate-lab', path: 'temperature_trends.ipynb' };

let running: RunningCommand;
let work: string;
let tasks: TasksClient;
/** What the user was asked, through the ext-tasks client's input routing. */
const asked: Array<{ message: unknown; taskId: string | undefined; delivery: string }> = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'reactor-demo-tasks-'));
  cpSync(SAMPLE_ROOT, join(work, 'spaces'), { recursive: true });
  running = await runDemoOver({ spaces: join(work, 'spaces'), benchmarks: join(work, 'benchmarks') }, [approvals]);
  tasks = await connectTasksClient(new URL(`${running.url}?kernels,approvals`), 'demo-tasks-e2e', {
    onInputRequest: createApplicationInputHandler({
      elicitation: (request, context) => {
        asked.push({ message: request.params['message'], taskId: context.taskId, delivery: context.delivery });
        return { action: 'accept', content: { confirm: true } };
      },
      sampling: () => Promise.reject(new Error('this test never samples')),
      roots: () => ({ roots: [] }),
    }),
  });
}, 60_000);

afterAll(async () => {
  await tasks?.close();
  await running?.close();
  rmSync(work, { recursive: true, force: true });
});

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };
const text = (r: Result) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

describe('the demo\'s tasks, through the ext-tasks client', () => {
  it('advertises the tasks extension, so the client runs a 2026-07-28 task session', () => {
    expect(tasks.client.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/tasks']).toEqual({});
    expect(tasks.session.capabilities).toBeDefined();
  });

  it('runs kernels\' execute_code as a task: the client polls it to the end and reads the output', async () => {
    const execution = await tasks.session.callTool('execute_code', { ...NOTEBOOK, code: 'print(6 * 7)' }, { task: { preference: 'require' } });
    expect(execution.kind).toBe('task');
    const taskId = execution.kind === 'task' ? execution.handle.taskId : '';
    const { outcome } = await execution.settle();
    expect(outcome.status, outcome.status === 'failed' ? outcome.error.message : '').toBe('completed');
    const result = resultFromTaskOutcome(outcome) as Result;
    expect(result.isError, text(result)).toBeFalsy();
    expect(text(result)).toContain('42');
    expect(result.structuredContent).toMatchObject({ status: 'ok', space: 'climate-lab', path: 'temperature_trends.ipynb' });
    // Polled with tasks/get, routed by the task id in Mcp-Name as the specification asks.
    expect(tasks.sent).toContainEqual({ method: 'tasks/get', name: taskId });
  }, 45_000);

  it('cancels a long kernel run: the task ends cancelled and the kernel is interrupted', async () => {
    const loop = ['import time', 'print("sleeping", flush=True)', 'try:', '    for step in range(600):', '        time.sleep(0.1)', 'except KeyboardInterrupt:', '    interrupted_at = step', '    raise'].join('\n');
    const execution = await tasks.session.callTool('execute_code', { ...NOTEBOOK, code: loop, timeout_s: 120 }, { task: { preference: 'require' } });
    expect(execution.kind).toBe('task');
    // Cancel once the task's status says the loop printed (it is running on the kernel by then).
    const statuses: string[] = [];
    let printed!: () => void;
    const running = new Promise<void>((resolve) => (printed = resolve));
    const settled = execution.settle({
      onEvent: (event) => {
        const task: TaskView | undefined = event.type === 'task' ? event.task : undefined;
        if (task?.statusMessage !== undefined) statuses.push(task.statusMessage);
        if (task?.status === 'working' && /output/.test(task.statusMessage ?? '')) printed();
      },
    });
    await running;
    await execution.cancel();
    const { outcome } = await settled;
    expect(outcome.status).toBe('cancelled');
    // What the handler reported through ctx.task, read by tasks/get.
    expect(statuses.some((s) => /^(1 output so far|running for \d+ s, 1 outputs so far)$/.test(s)), statuses.join(' | ')).toBe(true);
    // The kernel was interrupted: the loop caught KeyboardInterrupt early, and this run is not queued behind the rest of it.
    // tasks/cancel answers at once and the interrupt reaches the kernel just after: a run sent in between is queued behind
    // the loop, and the kernel aborts it when the loop raises (status "aborted") — then the next one runs.
    const readStep = async (): Promise<Result> => {
      const after = await tasks.session.callTool('execute_code', { ...NOTEBOOK, code: 'print("interrupted at step", interrupted_at)' });
      return resultFromTaskOutcome((await after.settle()).outcome) as Result;
    };
    let result = await readStep();
    if (result.structuredContent?.['status'] === 'aborted') result = await readStep();
    expect(text(result)).toMatch(/interrupted at step \d+/);
    expect(Number(/interrupted at step (\d+)/.exec(text(result))?.[1])).toBeLessThan(599);
  }, 50_000);

  it('runs spaces\' search_text over a whole space as a task', async () => {
    const execution = await tasks.session.callTool('search_text', { space: 'climate-lab', query: 'setosa', max_results: 3 }, { task: { preference: 'require' } });
    expect(execution.kind).toBe('task');
    const { outcome } = await execution.settle();
    expect(outcome.status, outcome.status === 'failed' ? outcome.error.message : '').toBe('completed');
    const result = resultFromTaskOutcome(outcome) as Result;
    expect(result.structuredContent).toMatchObject({ space: 'climate-lab', query: 'setosa', truncated: true });
    expect(result.structuredContent?.['matches']).toHaveLength(3);
  }, 20_000);

  it('asks for input inside a task, answered through the client\'s input routing (tasks/update)', async () => {
    const execution = await tasks.session.callTool('archive_space', { space: 'climate-lab' }, { task: { preference: 'require' } });
    expect(execution.kind).toBe('task');
    const taskId = execution.kind === 'task' ? execution.handle.taskId : '';
    const { outcome } = await execution.settle();
    expect(outcome.status, outcome.status === 'failed' ? outcome.error.message : '').toBe('completed');
    expect(text(resultFromTaskOutcome(outcome) as Result)).toBe('archived climate-lab');
    expect(asked).toEqual([{ message: 'Archive climate-lab?', taskId, delivery: 'task-update' }]);
    expect(tasks.sent).toContainEqual({ method: 'tasks/update', name: taskId });
  }, 30_000);
});
