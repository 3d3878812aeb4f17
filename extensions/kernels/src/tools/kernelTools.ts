/**
 * The tools that manage kernels: which kernelspecs are allowed, which
 * kernels run, and opening, interrupting, restarting and shutting down a
 * notebook's kernel.
 */
import { capItems, defineTool } from '@reactor/host';
import { z } from 'zod';
import { jupyterFailure } from '../jupyterClient.js';
import { cellIndex, readNotebook } from '../notebookFile.js';
import { kernelError, notebookSubject } from '../errors.js';
import { notebookPathOf, ownerOf } from '../owner.js';
import type { KernelsRuntime } from '../runtime.js';
import { KERNELS_TOOLSET, kernelState, notebookArg, openNotebook, READS_KERNEL, spaceArg } from './common.js';

const notebookArgs = z.object({ space: spaceArg, path: notebookArg });

/** `list_kernelspecs`: the kernelspecs the operator allows, as the server describes them. */
export function createListKernelspecsTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'list_kernelspecs',
    title: 'List kernelspecs',
    description: 'List the kernel types (kernelspecs) this server lets you start — only those the operator allows.',
    inputSchema: z.object({}),
    outputSchema: z.object({ kernelspecs: z.array(z.object({ name: z.string(), display_name: z.string(), language: z.string(), default: z.boolean() })) }),
    annotations: READS_KERNEL,
    handler: async () => {
      const client = runtime.client();
      let specs: Awaited<ReturnType<typeof client.kernelspecs.get>>;
      try {
        specs = await client.kernelspecs.get();
      } catch (error) {
        throw jupyterFailure(client.endpoint, 'list its kernelspecs', error);
      }
      const preferred = runtime.kernelspecs[0];
      return {
        kernelspecs: runtime.kernelspecs.flatMap((name) => {
          const spec = specs.kernelspecs[name];
          if (!spec) return [];
          return [{ name, display_name: spec.display_name, language: spec.language, default: name === preferred }];
        }),
      };
    },
  });
}

/** `list_kernels`: the caller's kernels running on the server, each with its notebook. */
export function createListKernelsTool(runtime: KernelsRuntime) {
  const kernel = z.object({
    id: z.string(),
    kernelspec: z.string(),
    notebook: z.object({ space: z.string(), path: z.string() }).nullable().describe('The space notebook the kernel belongs to; null for a kernel outside every space.'),
    state: z.string().describe('idle, busy, starting, dead…'),
    last_activity: z.string().nullable(),
    connections: z.number().int().nullable(),
    started_by_us: z.boolean().describe('True when this MCP server started it (it shuts such kernels down when idle); false for kernels a person or another client opened.'),
  });
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'list_kernels',
    title: 'List kernels',
    description: 'List your kernels running on the Jupyter Server: id, notebook (space and path), state, last activity, and whether this server started it.',
    inputSchema: z.object({}),
    outputSchema: z.object({ kernels: z.array(kernel) }),
    annotations: READS_KERNEL,
    handler: async (_args, ctx) => {
      const owner = ownerOf(ctx);
      const client = runtime.client();
      let kernels: Awaited<ReturnType<typeof client.kernelsApi.listRunning>>;
      let sessions: Awaited<ReturnType<typeof client.sessionsApi.listRunning>>;
      try {
        [kernels, sessions] = await Promise.all([client.kernelsApi.listRunning(), client.sessionsApi.listRunning()]);
      } catch (error) {
        throw jupyterFailure(client.endpoint, 'list its kernels', error);
      }
      const ours = new Set(runtime.kernels.all().filter((l) => l.startedByUs).map((l) => l.kernel.id));
      const sessionOf = (kernelId: string) => sessions.find((s) => s.kernel?.id === kernelId);
      // Only the caller's: another owner's kernels are not listed (the shared owner of a server without auth
      // sees every kernel but the other owners', as before owners existed).
      const mine = kernels.filter((k) => {
        const session = sessionOf(k.id);
        return session ? owner.owns(session.path) : owner.shared;
      });
      return {
        kernels: await Promise.all(
          mine.map(async (k) => {
            const session = sessionOf(k.id);
            return {
              id: k.id,
              kernelspec: k.name,
              notebook: session ? ((await runtime.locate(notebookPathOf(session.path))) ?? null) : null,
              state: k.execution_state ?? 'unknown',
              last_activity: k.last_activity ?? null,
              connections: typeof k.connections === 'number' ? k.connections : null,
              started_by_us: ours.has(k.id),
            };
          }),
        ),
      };
    },
  });
}

/** `open_notebook`: find or start the notebook's kernel (idempotent). */
export function createOpenNotebookTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'open_notebook',
    title: 'Open notebook',
    description:
      'Find or start the kernel of a notebook in a space, and list its cells with their ids (execute_cell, overwrite_cell_source and delete_cell take a cell id). Idempotent: a notebook that already has a kernel — including one a person has open — keeps it.',
    inputSchema: notebookArgs.extend({ kernelspec: z.string().optional().describe('For a new kernel: a kernelspec from list_kernelspecs. Default: the notebook\'s own, when allowed, else the default.') }),
    outputSchema: z.object({
      space: z.string(),
      path: z.string(),
      kernel_id: z.string(),
      kernelspec: z.string(),
      state: z.string(),
      opened: z.enum(['already-open', 'joined', 'started']).describe('already-open: this server held it; joined: someone else\'s session (a person\'s open notebook); started: a new kernel.'),
      note: z.string().optional(),
      cells: z.array(z.object({ id: z.string(), type: z.string(), first_line: z.string() })),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    handler: async (args, ctx) => {
      const ref = await runtime.notebook(args.space, args.path);
      const client = runtime.client();
      const nb = await readNotebook(client.contents, ref).catch((error: unknown) => {
        throw jupyterFailure(client.endpoint, `read ${ref.space}/${ref.path}`, error);
      });
      if (args.kernelspec !== undefined && !runtime.kernelspecs.includes(args.kernelspec)) {
        throw kernelError(`kernelspec ${JSON.stringify(args.kernelspec)}`, 'is not allowed on this server', { expected: `one of ${runtime.kernelspecs.join(', ')}`, hint: 'list_kernelspecs lists the allowed ones' });
      }
      const opened = await openNotebook(runtime, args.space, args.path, ctx, args.kernelspec ?? nb.content.metadata?.kernelspec?.name);
      // The caller has seen the cells of this version: the writing tools change it only while it is still this one.
      runtime.readVersions.seen(ctx, ref.jupyterPath, nb.lastModified);
      const cells = cellIndex(nb.content);
      // As many cells as fit the answer's budget; the rest are named as a way on (read_notebook pages through them, with their ids).
      return capItems(cells, runtime.budget, (kept) => {
        const rest = kept.length < cells.length ? `Listed the first ${kept.length} of ${cells.length} cells; read_notebook with cells: { start: ${kept.length} } lists the rest with their ids.` : undefined;
        const note = [opened.note, rest].filter((n) => n !== undefined).join(' ');
        return {
          space: ref.space,
          path: ref.path,
          kernel_id: opened.live.kernel.id,
          kernelspec: opened.live.kernel.name,
          state: kernelState(opened.live),
          opened: opened.how,
          ...(note !== '' ? { note } : {}),
          cells: [...kept],
        };
      }, Math.min(1, cells.length)).result;
    },
  });
}

async function heldOrFail(runtime: KernelsRuntime, space: string, path: string, ctx: Parameters<typeof openNotebook>[3]) {
  const ref = await runtime.notebook(space, path);
  // Only the caller's kernel: another principal's is never reached (for the shared owner of a server without
  // auth, a kernel a person started counts too: join it). Never starts one just to interrupt or stop it.
  const owner = ownerOf(ctx);
  const held = runtime.kernels.held(owner, ref.jupyterPath);
  if (held) return held;
  const client = runtime.client();
  const sessions = await client.sessionsApi.listRunning().catch((error: unknown) => {
    throw jupyterFailure(client.endpoint, 'list its sessions', error);
  });
  if (!sessions.some((s) => s.path === owner.sessionPath(ref.jupyterPath) && s.kernel)) {
    throw kernelError(notebookSubject(ref.space, ref.path), 'has no live kernel', { hint: 'open_notebook starts one (execute_cell does too)' });
  }
  return (await openNotebook(runtime, space, path, ctx)).live;
}

/** `interrupt_kernel`. */
export function createInterruptKernelTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'interrupt_kernel',
    title: 'Interrupt kernel',
    description: 'Interrupt what a notebook\'s kernel is running (like pressing Stop): the running cell raises KeyboardInterrupt; variables are kept.',
    inputSchema: notebookArgs,
    outputSchema: z.object({ space: z.string(), path: z.string(), kernel_id: z.string(), interrupted_runs: z.array(z.string()).describe('execution_ids of the runs that were going') }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    handler: async (args, ctx) => {
      const live = await heldOrFail(runtime, args.space, args.path, ctx);
      const running = runtime.executions.runningOn(live.kernel.id, live.owner.key);
      for (const run of running) run.interrupted = true;
      await live.kernel.interrupt().catch((error: unknown) => {
        throw jupyterFailure(runtime.client().endpoint, `interrupt the kernel of ${live.ref.space}/${live.ref.path}`, error);
      });
      live.lastActivity = Date.now();
      return { space: live.ref.space, path: live.ref.path, kernel_id: live.kernel.id, interrupted_runs: running.map((r) => r.id) };
    },
  });
}

/** `restart_kernel`. */
export function createRestartKernelTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'restart_kernel',
    title: 'Restart kernel',
    description: 'Restart a notebook\'s kernel. ALL STATE IS LOST: variables, imports and loaded data are gone; run the setup cells again afterwards.',
    inputSchema: notebookArgs,
    outputSchema: z.object({ space: z.string(), path: z.string(), kernel_id: z.string(), state: z.string(), note: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    handler: async (args, ctx) => {
      const live = await heldOrFail(runtime, args.space, args.path, ctx);
      await live.kernel.restart().catch((error: unknown) => {
        throw jupyterFailure(runtime.client().endpoint, `restart the kernel of ${live.ref.space}/${live.ref.path}`, error);
      });
      live.lastActivity = Date.now();
      return { space: live.ref.space, path: live.ref.path, kernel_id: live.kernel.id, state: kernelState(live), note: 'The kernel restarted: every variable, import and loaded dataset is gone.' };
    },
  });
}

/** `shutdown_kernel`. */
export function createShutdownKernelTool(runtime: KernelsRuntime) {
  return defineTool({
    toolset: KERNELS_TOOLSET,
    name: 'shutdown_kernel',
    title: 'Shut down kernel',
    description: 'Shut down a notebook\'s kernel and end its session (its state is lost; a person with the notebook open loses their kernel too). The notebook file is untouched.',
    inputSchema: notebookArgs,
    outputSchema: z.object({ space: z.string(), path: z.string(), kernel_id: z.string(), was_ours: z.boolean() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    handler: async (args, ctx) => {
      const live = await heldOrFail(runtime, args.space, args.path, ctx);
      await runtime.kernels.shutdown(live);
      return { space: live.ref.space, path: live.ref.path, kernel_id: live.kernel.id, was_ours: live.startedByUs };
    },
  });
}
