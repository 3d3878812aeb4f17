/**
 * `@reactor/ext-kernels`: run the cells of a space's notebooks on real
 * Jupyter kernels. The default export is the extension with default options
 * (kernels from the environment: `REACTOR_JUPYTER=auto`, or
 * `REACTOR_JUPYTER_URL` + `REACTOR_JUPYTER_TOKEN`), as `reactorMcp` in
 * package.json names it; `createKernelsExtension(options)` makes one with others.
 */
import { createKernelsExtension } from './extension.js';

export { createKernelsExtension, KERNELS_TOOLSETS, KERNELS_TOOL_NAMES } from './extension.js';
export type { KernelsExtension } from './extension.js';
export type { KernelsOptions, KernelsRuntime } from './runtime.js';
export { createKernelsRuntime, commonFolder, MAX_RESPONSE_TOKENS_ENV, MIN_RESPONSE_TOKENS } from './runtime.js';
export { DEFAULT_KERNELS_LIMITS, DEFAULT_PYTHON, JUPYTER_ENV, KERNELS_SCOPE, resolveJupyterSource, resolveLimits, resolveKernelspecs, resolvePassEnv, resolveScopes, probePython, findPython, checkPython, pythonCandidates, installHint } from './config.js';
export type { KernelsLimits, JupyterOption, JupyterSource, RemoteJupyter, FoundPython } from './config.js';
export { startJupyterServer, freePort, jupyterServerEnv, JUPYTER_SERVER_ENV } from './jupyterServer.js';
export type { JupyterServerProcess, StartJupyterOptions } from './jupyterServer.js';
export { createJupyterClient, tokenWebSocket } from './jupyterClient.js';
export type { JupyterClient, JupyterEndpoint } from './jupyterClient.js';
export { renderOutputs, truncateText, stripAnsi, errorText } from './outputs.js';
export type { NbOutput, OutputContent, RenderLimits, RenderedOutputs } from './outputs.js';
export { startExecution, ExecutionStore } from './execution.js';
export type { Execution, ExecutionStatus, ExecutionTarget } from './execution.js';
export { quietJupyterlabConsole } from './quietConsole.js';
export { createReadNotebookExtension, readNotebookWithKernelOutput, readNotebookDescription, READ_NOTEBOOK_TOOL, READ_NOTEBOOK_NOTE, READ_NOTEBOOK_EXTENSION_ORDER } from './readNotebookExtension.js';
export { executionOutput } from './tools/executeTools.js';
export { EXTENSION_NAME } from './errors.js';

/** The extension with default options: what the host imports when a URL asks for `kernels`. */
const kernels = createKernelsExtension();
export default kernels;
