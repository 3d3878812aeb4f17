/**
 * One run of code on a kernel, collected as nbformat outputs while it runs:
 * streams merged, `clear_output` and `update_display_data` applied, the
 * execution count and final status taken from the reply. `allow_stdin` is
 * always off, so `input()` raises at once instead of waiting for a person.
 *
 * A run outlives the call that started it: on its time limit the caller
 * interrupts the kernel and returns what came so far with the run's id;
 * `get_execution` reads the rest from the {@link ExecutionStore} — the
 * caller who started it only: a run belongs to its owner (owner.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { messageOf } from './errors.js';
import type { NbOutput } from './outputs.js';

/** Where a run stands. `interrupted`: stopped on its time limit or by interrupt_kernel. */
export type ExecutionStatus = 'running' | 'ok' | 'error' | 'aborted' | 'interrupted' | 'failed';

/** Which notebook a run belongs to. */
export interface ExecutionTarget {
  readonly space: string;
  readonly path: string;
  /** The cell run, or undefined for scratch code. */
  readonly cellId?: string;
  /** Whose run it is (`KernelOwner.key`; `''`, the default, is the shared owner of a server without auth). */
  readonly owner?: string;
}

/** A run. */
export interface Execution extends ExecutionTarget {
  readonly id: string;
  readonly kernelId: string;
  readonly outputs: NbOutput[];
  executionCount: number | null;
  status: ExecutionStatus;
  /** Set when the kernel was interrupted while this ran. */
  interrupted: boolean;
  /** Why a `failed` run failed (the kernel died, was restarted, or the connection dropped). */
  failure?: string;
  readonly startedAt: number;
  finishedAt?: number;
  /** Resolves when the run is over, whatever its status. Never rejects. */
  readonly finished: Promise<void>;
}

/** Starts running `code` on `kernel`; `onOutput` is told each time an output arrives (for progress). */
export function startExecution(kernel: Kernel.IKernelConnection, code: string, target: ExecutionTarget, options: { storeHistory: boolean; onOutput?: (count: number) => void }): Execution {
  const future = kernel.requestExecute({ code, allow_stdin: false, store_history: options.storeHistory, stop_on_error: true, silent: false }, true);
  let clearPending = false;
  const displays = new Map<string, number>();
  const execution: Execution = {
    ...target,
    id: randomUUID(),
    kernelId: kernel.id,
    outputs: [],
    executionCount: null,
    status: 'running',
    interrupted: false,
    startedAt: Date.now(),
    finished: Promise.resolve(),
  };
  const push = (output: NbOutput, displayId?: string) => {
    if (clearPending) {
      execution.outputs.length = 0;
      displays.clear();
      clearPending = false;
    }
    const last = execution.outputs[execution.outputs.length - 1];
    if (output.output_type === 'stream' && last?.output_type === 'stream' && last.name === output.name) last.text += output.text;
    else {
      execution.outputs.push(output);
      if (displayId !== undefined) displays.set(displayId, execution.outputs.length - 1);
    }
    options.onOutput?.(execution.outputs.length);
  };
  future.onIOPub = (msg: KernelMessage.IIOPubMessage) => {
    const content = msg.content as Record<string, unknown>;
    switch (msg.header.msg_type) {
      case 'execute_input':
        if (typeof content.execution_count === 'number') execution.executionCount = content.execution_count;
        break;
      case 'stream':
        push({ output_type: 'stream', name: content.name === 'stderr' ? 'stderr' : 'stdout', text: typeof content.text === 'string' ? content.text : '' });
        break;
      case 'display_data':
      case 'execute_result': {
        const data = (content.data ?? {}) as Record<string, unknown>;
        const metadata = (content.metadata ?? {}) as Record<string, unknown>;
        const displayId = ((content.transient ?? {}) as { display_id?: unknown }).display_id;
        const output: NbOutput =
          msg.header.msg_type === 'execute_result'
            ? { output_type: 'execute_result', data, metadata, execution_count: typeof content.execution_count === 'number' ? content.execution_count : null }
            : { output_type: 'display_data', data, metadata };
        push(output, typeof displayId === 'string' ? displayId : undefined);
        break;
      }
      case 'update_display_data': {
        const displayId = ((content.transient ?? {}) as { display_id?: unknown }).display_id;
        const at = typeof displayId === 'string' ? displays.get(displayId) : undefined;
        const target = at === undefined ? undefined : execution.outputs[at];
        if (target && target.output_type !== 'stream' && target.output_type !== 'error') {
          target.data = (content.data ?? {}) as Record<string, unknown>;
          target.metadata = (content.metadata ?? {}) as Record<string, unknown>;
          options.onOutput?.(execution.outputs.length);
        }
        break;
      }
      case 'error':
        push({ output_type: 'error', ename: typeof content.ename === 'string' ? content.ename : 'Error', evalue: typeof content.evalue === 'string' ? content.evalue : '', traceback: Array.isArray(content.traceback) ? content.traceback.map(String) : [] });
        break;
      case 'clear_output':
        if (content.wait === true) clearPending = true;
        else {
          execution.outputs.length = 0;
          displays.clear();
        }
        break;
      default:
        break;
    }
  };
  const finished = future.done.then(
    (reply) => {
      const content = reply.content as { status?: string; execution_count?: unknown; ename?: unknown };
      if (typeof content.execution_count === 'number') execution.executionCount = content.execution_count;
      execution.status =
        content.status === 'ok' ? 'ok' : content.status === 'aborted' ? 'aborted' : execution.interrupted && content.ename === 'KeyboardInterrupt' ? 'interrupted' : 'error';
    },
    (error: unknown) => {
      execution.status = 'failed';
      execution.failure = `the kernel stopped answering this run (${messageOf(error)}): it was restarted, shut down or died`;
    },
  ).finally(() => {
    execution.finishedAt = Date.now();
  });
  (execution as { finished: Promise<void> }).finished = finished;
  return execution;
}

/**
 * Runs kept for `get_execution`: every running one, and the most recent
 * finished ones up to a bound (the oldest finished go first).
 */
export class ExecutionStore {
  private readonly runs = new Map<string, Execution>();

  constructor(private readonly keepFinished: number) {}

  add(execution: Execution): void {
    this.runs.set(execution.id, execution);
    void execution.finished.then(() => this.prune());
  }

  /** The owner's run with this id; another owner's is not found, exactly as an unknown id. */
  get(id: string, owner = ''): Execution | undefined {
    const run = this.runs.get(id);
    return run !== undefined && (run.owner ?? '') === owner ? run : undefined;
  }

  /** Runs still going on a kernel (of one owner, when given). */
  runningOn(kernelId: string, owner?: string): Execution[] {
    return [...this.runs.values()].filter((e) => e.kernelId === kernelId && e.status === 'running' && (owner === undefined || (e.owner ?? '') === owner));
  }

  private prune(): void {
    const finished = [...this.runs.values()].filter((e) => e.status !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - this.keepFinished))) this.runs.delete(old.id);
  }
}
