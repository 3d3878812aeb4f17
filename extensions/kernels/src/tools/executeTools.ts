/**
 * The tools that run code: `execute_cell` (a notebook's cell, optionally
 * saving its outputs), `execute_code` (scratch code on the notebook's
 * kernel, never saved) and `get_execution` (the rest of a run that outlived
 * its wait).
 */
import { answerBudget, defineTool, type CallToolResult, type ToolContext } from '@reactor/host';
import { z } from 'zod';
import { kernelError, messageOf, notebookSubject } from '../errors.js';
import { startExecution, type Execution } from '../execution.js';
import { jupyterFailure } from '../jupyterClient.js';
import { findCodeCell, readNotebook, saveCellOutputs, sourceOf } from '../notebookFile.js';
import { renderOutputs } from '../outputs.js';
import { ownerOf } from '../owner.js';
import type { KernelsRuntime } from '../runtime.js';
import { EXECUTION_VIEW } from '../views.js';
import { KERNELS_TOOLSET, notebookArg, openNotebook, READS_KERNEL, RUNS_CODE, spaceArg, timeoutArg } from './common.js';

/** How long an interrupted run gets to wind down before the call returns without its end. */
const INTERRUPT_GRACE_MS = 5000;
/** How often a long run reports progress even when it prints nothing. */
const HEARTBEAT_MS = 5000;

/** The structured part of every run's result. */
export const executionOutput = z.object({
  execution_id: z.string().describe('Pass to get_execution to read the run again (or the rest of it, when status is "running").'),
  status: z.enum(['running', 'ok', 'error', 'aborted', 'interrupted', 'failed']).describe('ok; error: the code raised (see the traceback); interrupted: stopped on its time limit or by interrupt_kernel; running: still going (call get_execution); failed: the kernel died or restarted.'),
  execution_count: z.number().int().nullable(),
  space: z.string(),
  path: z.string(),
  cell_id: z.string().optional(),
  saved: z.boolean().optional().describe('execute_cell with save: whether the outputs were written into the notebook.'),
  outputs: z.number().int().describe('How many outputs the run produced.'),
  truncated_bytes: z.number().int().describe('Text left out of this answer (its head and tail are kept).'),
  images_omitted: z.number().int(),
  elapsed_ms: z.number().int(),
  note: z.string().optional(),
});
type ExecutionOutput = z.infer<typeof executionOutput>;

/** Waits for a run to end, at most `ms`; false when it is still going (or the call was cancelled). */
async function waitFor(execution: Execution, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      execution.finished.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
      new Promise<boolean>((resolve) => {
        onAbort = () => resolve(false);
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Reports how a run goes while it goes: as progress notifications when the
 * client asked for them (a progress token), and as the task's status message
 * when the call runs as a task (`ctx.task`, read by `tasks/get`). A heartbeat
 * says it is still running when it prints nothing. Returns a stop function.
 */
function reportProgress(ctx: ToolContext, execution: Execution): { onOutput: (count: number) => void; stop: () => void } {
  const token = ctx.mcpReq?._meta?.progressToken;
  const task = ctx.task;
  if (token === undefined && task === undefined) return { onOutput: () => {}, stop: () => {} };
  let sent = 0;
  const send = (message: string) => {
    task?.status(message);
    if (token === undefined) return;
    sent++;
    void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: sent, message } }).catch(() => {});
  };
  let last = 0;
  const heartbeat = setInterval(() => send(`running for ${Math.round((Date.now() - execution.startedAt) / 1000)} s, ${execution.outputs.length} outputs so far`), HEARTBEAT_MS);
  heartbeat.unref();
  return {
    onOutput: (count) => {
      const now = Date.now();
      if (now - last < 250) return; // a loop printing fast must not flood the client
      last = now;
      send(`${count} output${count === 1 ? '' : 's'} so far`);
    },
    stop: () => clearInterval(heartbeat),
  };
}

/** A run's result: a summary line, the outputs as content, and the structured fields. */
export function executionResult(runtime: KernelsRuntime, execution: Execution, extra: { saved?: boolean; note?: string } = {}): CallToolResult {
  const note = extra.note !== undefined || execution.failure !== undefined ? [execution.failure, extra.note].filter(Boolean).join(' ') : undefined;
  const what = execution.cellId !== undefined ? `cell ${execution.cellId} of ${execution.space}/${execution.path}` : `code on the kernel of ${execution.space}/${execution.path}`;
  const lines = [
    `${what}: ${execution.status}${execution.executionCount !== null ? `, execution_count ${execution.executionCount}` : ''} (execution_id ${execution.id})`,
    ...(note !== undefined ? [note] : []),
    ...(execution.outputs.length === 0 ? ['(no output)'] : []),
  ];
  // The outputs' text gets what the summary leaves of the budget (its bytes bound its tokens: nothing is tokenized for it).
  const left = Math.max(100, runtime.budget.maxTokens - Buffer.byteLength(lines.join('\n'), 'utf8') - 10);
  const rendered = renderOutputs(execution.outputs, runtime.limits, answerBudget({ maxTokens: left, counter: runtime.budget.counter }));
  const structured: ExecutionOutput = {
    execution_id: execution.id,
    status: execution.status,
    execution_count: execution.executionCount,
    space: execution.space,
    path: execution.path,
    ...(execution.cellId !== undefined ? { cell_id: execution.cellId } : {}),
    ...(extra.saved !== undefined ? { saved: extra.saved } : {}),
    outputs: execution.outputs.length,
    truncated_bytes: rendered.truncatedBytes,
    images_omitted: rendered.imagesOmitted,
    elapsed_ms: (execution.finishedAt ?? Date.now()) - execution.startedAt,
    ...(note !== undefined ? { note } : {}),
  };
  return { content: [{ type: 'text', text: lines.join('\n') }, ...rendered.content], structuredContent: structured };
}

/** Runs code on the notebook's kernel and waits (bounded); on the time limit, interrupts and returns what came. */
async function runAndWait(runtime: KernelsRuntime, ctx: ToolContext, opened: Awaited<ReturnType<typeof openNotebook>>, code: string, cellId: string | undefined, timeoutS: number | undefined): Promise<{ execution: Execution; note?: string }> {
  const { live, ref } = opened;
  live.lastActivity = Date.now();
  const progress = { onOutput: (_count: number) => {}, stop: () => {} };
  const execution = startExecution(live.kernel, code, { space: ref.space, path: ref.path, ...(cellId !== undefined ? { cellId } : {}), owner: live.owner.key }, { storeHistory: cellId !== undefined, onOutput: (n) => progress.onOutput(n) });
  runtime.executions.add(execution);
  Object.assign(progress, reportProgress(ctx, execution));
  const limitS = timeoutS ?? runtime.limits.defaultTimeoutS;
  // Aborted when the client cancels the call or its task (tasks/cancel), or the host's time limit passes.
  const signal = ctx.signal;
  try {
    if (await waitFor(execution, limitS * 1000, signal)) return opened.note !== undefined ? { execution, note: opened.note } : { execution };
    // The time limit (or the client cancelled): stop the run, keep what it printed.
    execution.interrupted = true;
    await live.kernel.interrupt().catch((error: unknown) => runtime.logger.warn({ notebook: ref.jupyterPath }, `could not interrupt a run past its time limit: ${messageOf(error)}`));
    const ended = await waitFor(execution, INTERRUPT_GRACE_MS, undefined);
    const why = signal.aborted ? 'The call was cancelled, so the kernel was interrupted.' : `The run passed its ${limitS} s limit, so the kernel was interrupted; its variables are kept.`;
    const rest = ended ? '' : ' It has not stopped yet: get_execution shows the rest.';
    return { execution, note: [opened.note, why + rest].filter(Boolean).join(' ') };
  } finally {
    progress.stop();
    live.lastActivity = Date.now();
  }
}

/** `execute_cell`. */
export function createExecuteCellTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'execute_cell',
    title: 'Execute cell',
    description:
      'Run one code cell of a notebook (by its id, from open_notebook or read_notebook) on the notebook\'s kernel, starting the kernel if needed, and return its outputs and execution_count. ' +
      'Text keeps its head and tail when long; images come as image content; errors show the exception and the last traceback frames. input() is not available (it fails at once). ' +
      'With save: true the outputs are written into the .ipynb — only if nobody changed the file meanwhile (otherwise an error, and nothing is overwritten).',
    inputSchema: z.object({
      space: spaceArg,
      path: notebookArg,
      cell_id: z.string().min(1).describe('The cell\'s id ("#3" for the 4th cell of a notebook without cell ids).'),
      timeout_s: timeoutArg(runtime),
      save: z.boolean().default(false).describe('Write the outputs and execution_count into the notebook file.'),
    }),
    outputSchema: executionOutput,
    annotations: RUNS_CODE,
    view: EXECUTION_VIEW,
    // A long run can outlive its request: a client that opts in gets a task to poll (and cancel, which interrupts the kernel).
    task: 'optional',
    timeoutMs: (runtime.limits.maxTimeoutS + 30) * 1000,
    handler: async (args, ctx) => {
      const ref = await runtime.notebook(args.space, args.path);
      const client = runtime.client();
      const nb = await readNotebook(client.contents, ref).catch((error: unknown) => {
        throw jupyterFailure(client.endpoint, `read ${ref.space}/${ref.path}`, error);
      });
      const { cell } = findCodeCell(nb.content, ref, args.cell_id);
      const opened = await openNotebook(runtime, args.space, args.path, ctx, nb.content.metadata?.kernelspec?.name);
      const { execution, note } = await runAndWait(runtime, ctx, opened, sourceOf(cell), args.cell_id, args.timeout_s);
      if (!args.save) return executionResult(runtime, execution, note !== undefined ? { note } : {});
      if (execution.status === 'running' || execution.status === 'failed') {
        return executionResult(runtime, execution, { saved: false, note: [note, `Not saved: the run ${execution.status === 'running' ? 'has not finished' : 'failed'}.`].filter(Boolean).join(' ') });
      }
      const outcome = await saveCellOutputs(client.contents, ref, args.cell_id, nb.lastModified, execution.outputs, execution.executionCount).catch((error: unknown) => {
        throw jupyterFailure(client.endpoint, `save ${ref.space}/${ref.path}`, error);
      });
      if (!outcome.saved) {
        throw kernelError(notebookSubject(ref.space, ref.path), 'changed while the cell ran, so its outputs were NOT saved (nothing was overwritten)', {
          expected: `the version read before the run (last_modified ${outcome.readAt})`,
          received: `last_modified ${outcome.changedAt}`,
          hint: `someone else edited or saved it: read it again and rerun with save: true; the run's outputs are kept — get_execution { "execution_id": "${execution.id}" } shows them`,
        });
      }
      // The caller's own save does not make what it read stale.
      if (runtime.readVersions.lastRead(ctx, ref.jupyterPath) === nb.lastModified) runtime.readVersions.seen(ctx, ref.jupyterPath, outcome.lastModified);
      return executionResult(runtime, execution, note !== undefined ? { saved: true, note } : { saved: true });
    },
  });
}

/** `execute_code`. */
export function createExecuteCodeTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'execute_code',
    title: 'Execute code',
    description:
      'Run scratch code on a notebook\'s kernel (it sees the notebook\'s variables; starts the kernel if needed) and return the outputs. Nothing is written into the notebook. Same output rules and time limit as execute_cell.',
    inputSchema: z.object({ space: spaceArg, path: notebookArg, code: z.string().min(1).describe('Code in the kernel\'s language.'), timeout_s: timeoutArg(runtime) }),
    outputSchema: executionOutput,
    annotations: RUNS_CODE,
    view: EXECUTION_VIEW,
    // A long run can outlive its request: a client that opts in gets a task to poll (and cancel, which interrupts the kernel).
    task: 'optional',
    timeoutMs: (runtime.limits.maxTimeoutS + 30) * 1000,
    handler: async (args, ctx) => {
      const opened = await openNotebook(runtime, args.space, args.path, ctx);
      const { execution, note } = await runAndWait(runtime, ctx, opened, args.code, undefined, args.timeout_s);
      return executionResult(runtime, execution, note !== undefined ? { note } : {});
    },
  });
}

/** `get_execution`. */
export function createGetExecutionTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'get_execution',
    title: 'Get execution',
    description: 'Read a run again by its execution_id: its outputs so far and its status. A run still going is waited for, up to timeout_s (default 0: answer at once).',
    inputSchema: z.object({
      execution_id: z.string().min(1),
      timeout_s: z.number().min(0).max(runtime.limits.maxTimeoutS).default(0).describe('Wait this long for a running run to end, in seconds.'),
    }),
    outputSchema: executionOutput,
    annotations: READS_KERNEL,
    view: EXECUTION_VIEW,
    timeoutMs: (runtime.limits.maxTimeoutS + 30) * 1000,
    handler: async (args, ctx) => {
      // Only the caller's own runs: another's id is not known, exactly as an id that never existed.
      const execution = runtime.executions.get(args.execution_id, ownerOf(ctx).key);
      if (!execution) {
        throw kernelError(`execution ${JSON.stringify(args.execution_id)}`, 'is not known', {
          hint: `runs are kept while they go and the last ${runtime.limits.keptExecutions} finished ones after, each readable only by whoever started it; this one is older, from before this server restarted, or not yours`,
        });
      }
      if (execution.status === 'running' && args.timeout_s > 0) await waitFor(execution, args.timeout_s * 1000, ctx.mcpReq?.signal);
      return executionResult(runtime, execution);
    },
  });
}
