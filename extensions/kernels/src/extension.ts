/**
 * The kernels extension: an opt-in toolset, held until a URL asks for
 * `kernels`, depending on spaces (whose roots are the notebooks it runs).
 * Listing it touches nothing; waking it reads where kernels come from and
 * offers its tools only when they can work; `onStart` connects to the
 * configured Jupyter Server or starts the embedded one, `onStop` shuts down
 * the kernels it started and stops that server.
 */
import { createRequire } from 'node:module';
import { createStderrLogger, defineExtension, type McpExtension, type Toolset } from '@reactor/host';
import { KERNELS_SCOPE, resolveScopes } from './config.js';
import { EXTENSION_NAME } from './errors.js';
import { createReadNotebookExtension, READ_NOTEBOOK_TOOL } from './readNotebookExtension.js';
import { createKernelsRuntime, type KernelsOptions, type KernelsRuntime } from './runtime.js';
import { KERNELS_TOOLSET } from './tools/common.js';
import { createExecuteCellTool, createExecuteCodeTool, createGetExecutionTool } from './tools/executeTools.js';
import { createDeleteCellTool, createInsertCellTool, createOverwriteCellSourceTool } from './tools/notebookTools.js';
import { createInterruptKernelTool, createListKernelsTool, createListKernelspecsTool, createOpenNotebookTool, createRestartKernelTool, createShutdownKernelTool } from './tools/kernelTools.js';

// Read from package.json (one level above src/ and dist/): the version and the host range the peer dependency declares.
const pkg = createRequire(import.meta.url)('../package.json') as { version: string; peerDependencies: Record<string, string> };

/** The tool names, in list order. */
export const KERNELS_TOOL_NAMES = [
  'list_kernelspecs',
  'list_kernels',
  'open_notebook',
  'execute_cell',
  'execute_code',
  'get_execution',
  'interrupt_kernel',
  'restart_kernel',
  'shutdown_kernel',
  'insert_cell',
  'overwrite_cell_source',
  'delete_cell',
] as const;

/**
 * The toolset, exactly as package.json declares it (the host refuses a mismatch):
 * opt-in, and — since it runs code — only for tokens with the `kernels` scope
 * (the `scopes` option changes that in code).
 */
export const KERNELS_TOOLSETS: readonly Toolset[] = Object.freeze([
  {
    name: KERNELS_TOOLSET,
    title: 'Kernels',
    description: "Run the cells of a space's notebooks on live Jupyter kernels.",
    default: false,
    scopes: [KERNELS_SCOPE],
    instructions:
      'Kernels run the code cells of the notebooks in spaces. Every tool names its notebook (space + path); there is no current notebook.\n' +
      '- open_notebook finds or starts the notebook\'s kernel and lists its cells with their ids; read_notebook shows them with their outputs and ids too.\n' +
      '- execute_cell runs one cell by id and returns its outputs; save: true writes them into the notebook unless someone changed the file meanwhile. execute_code runs scratch code on the same kernel, never saved.\n' +
      '- A run past timeout_s is interrupted and its partial output returned with an execution_id; get_execution reads a run again. input() is not available.\n' +
      '- restart_kernel loses every variable; shutdown_kernel ends the kernel. list_kernels shows what runs.\n' +
      '- insert_cell, overwrite_cell_source and delete_cell change the notebook file, only on the version you last read (read_notebook or open_notebook); if someone changed it since, read it again.',
  },
]);

/** The extension, plus what a test or an embedding application may want to see. */
export interface KernelsExtension extends McpExtension {
  /** The runtime (limits, kernels, client); exists from creation, connected between onStart and onStop. */
  runtime(): KernelsRuntime;
}

/**
 * Creates the kernels extension. Options are checked at once (invalid ones
 * throw `REACTOR_OPTION_INVALID`); the environment is read when it wakes.
 */
export function createKernelsExtension(options: KernelsOptions = {}): KernelsExtension {
  const logger = options.logger ?? createStderrLogger('warn', { extension: EXTENSION_NAME });
  const scopes = resolveScopes(options.scopes);
  const runtime = createKernelsRuntime(options, logger);
  let started = false;
  return defineExtension({
    manifest: {
      name: EXTENSION_NAME,
      version: pkg.version,
      title: 'Kernels',
      description: "Run the cells of a space's notebooks on live Jupyter kernels: open, execute, save, interrupt, restart; insert, rewrite and delete cells.",
      activationEvents: [`onToolset:${KERNELS_TOOLSET}`],
      dependencies: ['spaces'],
      host: pkg.peerDependencies['@reactor/host'],
    },
    toolsets: () =>
      KERNELS_TOOLSETS.map(({ scopes: _declared, ...t }) => (scopes.length > 0 ? { ...t, scopes: [...scopes] } : t)),
    // Read once, when the extension wakes: with nothing configured (or no Jupyter to start) none is offered,
    // and availability() says why.
    tools: () =>
      runtime.availability().available
        ? [
            createListKernelspecsTool(runtime),
            createListKernelsTool(runtime),
            createOpenNotebookTool(runtime),
            createExecuteCellTool(runtime),
            createExecuteCodeTool(runtime),
            createGetExecutionTool(runtime),
            createInterruptKernelTool(runtime),
            createRestartKernelTool(runtime),
            createShutdownKernelTool(runtime),
            createInsertCellTool(runtime),
            createOverwriteCellSourceTool(runtime),
            createDeleteCellTool(runtime),
          ]
        : [],
    toolExtensions: () => (runtime.availability().available ? [[READ_NOTEBOOK_TOOL, createReadNotebookExtension(() => (started ? runtime : undefined))]] : []),
    availability: () => runtime.availability(),
    async onStart() {
      await runtime.start();
      started = true;
    },
    async onStop() {
      started = false;
      await runtime.stop();
    },
    runtime: () => runtime,
  });
}
