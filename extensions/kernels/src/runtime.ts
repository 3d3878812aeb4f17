/**
 * The extension's state, shared by its tools: where kernels come from (read
 * once, on first use), the Jupyter client (made in `start`, dropped in
 * `stop`), the notebooks' kernels, and the runs kept for `get_execution`.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { createRuntime as createSpacesRuntime, resolveInSpace, type SpacesOptions, type SpacesRuntime } from '@reactor/ext-spaces';
import { answerBudget, answerTokenCounter, DEFAULT_ANSWER_TOKENS, ErrorCodes, readLimit, type AnswerBudget, type ExtensionAvailability, type Logger } from '@reactor/host';
import { checkPython, DEFAULT_PYTHON, findPython, resolveJupyterSource, resolveKernelspecs, resolveLimits, resolvePassEnv, type JupyterOption, type JupyterSource, type KernelsLimits } from './config.js';
import { EXTENSION_NAME, kernelError, notebookSubject } from './errors.js';
import { ExecutionStore } from './execution.js';
import { createJupyterClient, displayUrl, type JupyterClient } from './jupyterClient.js';
import { startJupyterServer, type JupyterServerProcess } from './jupyterServer.js';
import type { NotebookRef } from './notebookFile.js';
import { NotebookKernels } from './notebookKernels.js';
import { quietJupyterlabConsole } from './quietConsole.js';
import { ReadVersions } from './readVersions.js';

/** Options of `createKernelsExtension`. */
export interface KernelsOptions {
  /** Where kernels come from: `'auto'`, `{ url, token, rootDir? }`, or `'off'`. Default: the environment (see README). */
  readonly jupyter?: JupyterOption;
  /**
   * The Python of the embedded server. Default `REACTOR_JUPYTER_PYTHON`, else the first with
   * jupyter_server and ipykernel of: the active virtual env (`VIRTUAL_ENV`), conda env
   * (`CONDA_PREFIX`), `python3`/`python` on `PATH`, `/usr/bin/python3`.
   */
  readonly python?: string;
  /** The spaces whose notebooks run: the same options as the spaces extension (default: its roots — `REACTOR_SPACES_ROOT`, else its sample). */
  readonly spaces?: SpacesOptions;
  /** The kernelspecs clients may use. Default `REACTOR_JUPYTER_KERNELSPECS`, else `["python3"]`. */
  readonly kernelspecs?: readonly string[];
  /**
   * The scopes a token needs for the `kernels` toolset, when the server checks tokens.
   * Default `["kernels"]`; `[]` lets every token run code. (In code only: a discovered
   * kernels is gated by its package.json, which says `["kernels"]`.)
   */
  readonly scopes?: readonly string[];
  /** Caps and time limits (see `KernelsLimits`). */
  readonly limits?: Partial<KernelsLimits>;
  /**
   * The most tokens (o200k_base) one tool answer carries — its text, and
   * separately its structured content — including `read_notebook` once kernels
   * extends it. Longer outputs keep their head and tail; `open_notebook` lists
   * fewer cells and says where to go on. Default
   * `REACTOR_KERNELS_MAX_RESPONSE_TOKENS`, else 10 000; at least 1 000.
   */
  readonly maxResponseTokens?: number;
  /** Where logs go. Default: JSON lines to stderr at `warn`. */
  readonly logger?: Logger;
  /** The environment read for the defaults. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Variables of this process's environment the embedded server and its kernels also get
   * (PYTHONPATH, proxies…), beyond the minimal one (`JUPYTER_SERVER_ENV`). Default
   * `REACTOR_JUPYTER_PASS_ENV` (comma list). Credentials (`REACTOR_MCP_*`, a Jupyter token) are refused.
   */
  readonly passEnv?: readonly string[];
}

/** The environment variable that sets `maxResponseTokens` when the option is not given. */
export const MAX_RESPONSE_TOKENS_ENV = 'REACTOR_KERNELS_MAX_RESPONSE_TOKENS';

/** The smallest `maxResponseTokens` accepted. */
export const MIN_RESPONSE_TOKENS = 1000;

/** What the tools share. */
export interface KernelsRuntime {
  readonly limits: KernelsLimits;
  /** What one answer may take (`maxResponseTokens`). */
  readonly budget: AnswerBudget;
  readonly kernelspecs: readonly string[];
  readonly logger: Logger;
  readonly spaces: SpacesRuntime;
  readonly kernels: NotebookKernels;
  readonly executions: ExecutionStore;
  /** The notebook version each reader last read (what the writing tools check against). */
  readonly readVersions: ReadVersions;
  /** The source in force (read once). */
  source(): JupyterSource;
  /** Whether the tools can be offered, and if not why (cheap after the first call). */
  availability(): ExtensionAvailability;
  /** The client; throws a clear error before start, after stop, or once the embedded server died. */
  client(): JupyterClient;
  /** A space's notebook, checked (inside the space, a `.ipynb` file) and placed on the Jupyter Server. */
  notebook(space: string, userPath: string): Promise<NotebookRef>;
  /** The space and path of a Jupyter path, when it lies in a space. */
  locate(jupyterPath: string): Promise<{ space: string; path: string } | undefined>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The embedded server's process id while it runs (REACTOR_JUPYTER=auto), else undefined. */
  embeddedPid(): number | undefined;
  /** Resolves when the embedded server exits, with how (immediately when there is none). */
  embeddedExited(): Promise<string>;
}

/** The folder every space lies in (their deepest common ancestor), real paths. */
export function commonFolder(dirs: readonly string[]): string {
  const real = dirs.map((d) => {
    try {
      return realpathSync(d);
    } catch {
      return path.resolve(d);
    }
  });
  if (real.length === 0) return path.parse(process.cwd()).root;
  let common = real[0] as string;
  for (const dir of real.slice(1)) {
    while (!isInside(common, dir)) common = path.dirname(common);
  }
  return common;
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Makes the runtime. Options are checked at once; the environment is read on first use. */
export function createKernelsRuntime(options: KernelsOptions, logger: Logger): KernelsRuntime {
  const env = options.env ?? process.env;
  const limits = resolveLimits(options.limits);
  const maxTokens = readLimit({ extension: EXTENSION_NAME, option: 'maxResponseTokens', value: options.maxResponseTokens, variable: MAX_RESPONSE_TOKENS_ENV, env, default: DEFAULT_ANSWER_TOKENS, min: MIN_RESPONSE_TOKENS });
  const budget = answerBudget({ maxTokens, counter: answerTokenCounter(import.meta.url) });
  const kernelspecs = resolveKernelspecs(options.kernelspecs, env);
  if (options.passEnv !== undefined) resolvePassEnv(options.passEnv, env); // checked at once; the environment's list when the server starts
  const spaces = createSpacesRuntime(options.spaces ?? {});
  const executions = new ExecutionStore(limits.keptExecutions);
  let source: JupyterSource | undefined;
  let python: string | undefined;
  let available: ExtensionAvailability | undefined;
  let client: JupyterClient | undefined;
  let embedded: JupyterServerProcess | undefined;
  let jupyterRoot: string | undefined;
  let releaseConsole: (() => void) | undefined;
  let starts = 0;

  const getSource = () => (source ??= resolveJupyterSource(options.jupyter, env, options.python));
  const spacesFolder = () => commonFolder(spaces.roots().entries.map((e) => e.dir));

  const kernels = new NotebookKernels({
    client: () => runtime.client(),
    limits,
    kernelspecs,
    logger,
    busy: (kernelId) => executions.runningOn(kernelId).length > 0,
  });

  const runtime: KernelsRuntime = {
    limits,
    budget,
    kernelspecs,
    logger,
    spaces,
    kernels,
    executions,
    readVersions: new ReadVersions(),
    source: getSource,
    availability() {
      if (available) return available;
      const from = getSource();
      if (from.kind === 'off') return (available = { available: false, reason: from.reason, hint: from.hint });
      if (from.kind === 'auto') {
        const found = from.python !== undefined ? checkPython(from.python) : findPython(env);
        if (!found.ok) return (available = { available: false, reason: `REACTOR_JUPYTER=auto, but ${found.reason}`, hint: found.hint });
        python = found.python;
      }
      return (available = { available: true });
    },
    client() {
      if (embedded && !embedded.alive()) {
        throw kernelError('the embedded Jupyter Server', 'has exited, so no kernel can run', { hint: 'restart this MCP server to start a new one (its log says why the old one stopped)' });
      }
      if (!client) {
        throw kernelError(`extension "${EXTENSION_NAME}"`, 'is not connected to a Jupyter Server: it has not started (or has stopped)', {
          hint: 'serve it through a host (a URL asking for ?kernels starts it), or call onStart() first in a test',
        }, ErrorCodes.START_FAILED);
      }
      return client;
    },
    async notebook(spaceName, userPath) {
      const space = await spaces.space(spaceName);
      const resolved = await resolveInSpace(space, userPath);
      if (!resolved.stats.isFile() || !resolved.relative.toLowerCase().endsWith('.ipynb')) {
        throw kernelError(notebookSubject(space.name, resolved.relative), 'is not a notebook file', { expected: 'a .ipynb file', hint: 'find_notebooks lists the notebooks of a space' });
      }
      const root = jupyterRoot ?? spacesFolder();
      const rel = path.relative(root, resolved.absolute);
      if (rel.startsWith('..') || path.isAbsolute(rel)) {
        throw kernelError(notebookSubject(space.name, resolved.relative), `lies outside the Jupyter Server's root directory (${root})`, {
          hint: 'the server\'s root must contain every space: set REACTOR_JUPYTER_ROOT (or the "rootDir" option) to a folder above them',
        });
      }
      return { space: space.name, path: resolved.relative, jupyterPath: rel.split(path.sep).join('/'), absolute: resolved.absolute };
    },
    async locate(jupyterPath) {
      const root = jupyterRoot ?? spacesFolder();
      const absolute = path.join(root, ...jupyterPath.split('/'));
      for (const space of await spaces.spaces()) {
        let dir: string;
        try {
          dir = realpathSync(space.dir);
        } catch {
          continue;
        }
        const rel = path.relative(dir, absolute);
        if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) return { space: space.name, path: rel.split(path.sep).join('/') };
      }
      return undefined;
    },
    async start() {
      if (starts++ > 0) return;
      const from = getSource();
      if (from.kind === 'off' || !runtime.availability().available) return;
      releaseConsole = quietJupyterlabConsole(logger);
      try {
        if (from.kind === 'auto') {
          jupyterRoot = spacesFolder();
          embedded = await startJupyterServer({
            python: python ?? from.python ?? DEFAULT_PYTHON,
            rootDir: jupyterRoot,
            logger,
            startTimeoutMs: limits.startTimeoutMs,
            // Never this process's environment: the minimal one, plus what the operator passes.
            passEnv: resolvePassEnv(options.passEnv, env),
            // Jupyter culls idle kernels too (ours and any started through it), a little after our own idle shutdown.
            extraArgs: [`--MappingKernelManager.cull_idle_timeout=${Math.ceil(limits.idleShutdownMs / 1000) + 60}`, '--MappingKernelManager.cull_interval=60'],
          });
          void embedded.exited.then((how) => {
            if (starts > 0) logger.error({ how }, `the embedded Jupyter Server exited unexpectedly (${how}); kernels tools will answer errors until this server restarts`);
          });
          client = createJupyterClient({ url: embedded.url, token: embedded.token }, limits.requestTimeoutMs);
          logger.info({ url: embedded.url, rootDir: jupyterRoot, python: python ?? from.python }, 'started the embedded Jupyter Server');
        } else {
          jupyterRoot = from.rootDir !== undefined ? path.resolve(from.rootDir) : spacesFolder();
          client = createJupyterClient({ url: from.url, token: from.token }, limits.requestTimeoutMs);
          logger.info({ url: displayUrl(from.url), rootDir: jupyterRoot }, 'using the configured Jupyter Server');
        }
        kernels.start();
      } catch (error) {
        releaseConsole();
        releaseConsole = undefined;
        starts = 0;
        throw error;
      }
    },
    embeddedPid: () => (embedded?.alive() ? embedded.pid : undefined),
    embeddedExited: () => embedded?.exited ?? Promise.resolve('not running'),
    async stop() {
      if (starts === 0 || --starts > 0) return;
      const server = embedded;
      embedded = undefined;
      try {
        if (client) await kernels.close();
      } finally {
        client?.dispose();
        client = undefined;
        await server?.stop();
        releaseConsole?.();
        releaseConsole = undefined;
      }
    },
  };
  return runtime;
}
