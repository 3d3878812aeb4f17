/**
 * Where kernels come from, and the limits they run under. Only the operator
 * decides: options, else the environment. No tool ever takes a server URL or
 * a token from a client.
 *
 * - `REACTOR_JUPYTER_URL` + `REACTOR_JUPYTER_TOKEN`: a Jupyter Server you run,
 *   whose root directory is the spaces root (`REACTOR_JUPYTER_ROOT` says where
 *   that is on this machine when it differs from the spaces' common folder).
 * - `REACTOR_JUPYTER=auto`: start a Jupyter Server on loopback with a random
 *   token (`<python> -m jupyter_server`: `REACTOR_JUPYTER_PYTHON`, else the
 *   first Python with jupyter_server and ipykernel — the active virtual env's,
 *   conda's, PATH's, then `/usr/bin/python3`; see {@link findPython}).
 * - nothing: unavailable, saying why and how to enable it.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { ErrorCodes } from '@reactor/host';
import { kernelError } from './errors.js';
import { assertPassableEnv } from './jupyterServer.js';

/** Environment variables the extension reads. */
export const JUPYTER_ENV = {
  mode: 'REACTOR_JUPYTER',
  url: 'REACTOR_JUPYTER_URL',
  token: 'REACTOR_JUPYTER_TOKEN',
  root: 'REACTOR_JUPYTER_ROOT',
  python: 'REACTOR_JUPYTER_PYTHON',
  kernelspecs: 'REACTOR_JUPYTER_KERNELSPECS',
  passEnv: 'REACTOR_JUPYTER_PASS_ENV',
} as const;

/** The last Python tried for the embedded server: Debian's, which has python3-jupyter-server and python3-ipykernel. */
export const DEFAULT_PYTHON = '/usr/bin/python3';

/** A Jupyter Server the operator runs. */
export interface RemoteJupyter {
  readonly url: string;
  readonly token: string;
  /** The server's root directory on this machine (default: the spaces' common folder). */
  readonly rootDir?: string;
}

/** What the `jupyter` option accepts: `'auto'`, a server, or `'off'`. */
export type JupyterOption = 'auto' | 'off' | RemoteJupyter;

/** The source of kernels in force. */
export type JupyterSource =
  | { readonly kind: 'remote'; readonly url: string; readonly token: string; readonly rootDir: string | undefined }
  | { readonly kind: 'auto'; /** The configured Python; undefined: the first that has Jupyter ({@link findPython}). */ readonly python: string | undefined }
  | { readonly kind: 'off'; readonly reason: string; readonly hint: string };

/** Limits of the extension. */
export interface KernelsLimits {
  /** The most text one call returns, in UTF-8 bytes (head and tail kept). Default 24 KiB. */
  readonly maxTextBytes: number;
  /** The most images one call returns. Default 3. */
  readonly maxImages: number;
  /** The largest image returned, decoded bytes (larger ones are summarised). Default 512 KiB. */
  readonly maxImageBytes: number;
  /** Traceback frames kept for an error (the last ones). Default 4. */
  readonly tracebackFrames: number;
  /** The wait of a call when `timeout_s` is left out, in seconds. Default 30. */
  readonly defaultTimeoutS: number;
  /** The longest wait a call may ask for, in seconds. Default 600. */
  readonly maxTimeoutS: number;
  /** Kernels one MCP session may start. Default 4. */
  readonly maxKernelsPerSession: number;
  /** Kernels this extension may have started at once. Default 16. */
  readonly maxKernels: number;
  /** A kernel we started and nobody used for this long is shut down, in ms. Default 30 minutes. */
  readonly idleShutdownMs: number;
  /** One REST request to Jupyter, in ms (calls never hang). Default 30 s. */
  readonly requestTimeoutMs: number;
  /** Starting the embedded server, in ms. Default 60 s. */
  readonly startTimeoutMs: number;
  /** Finished runs kept for get_execution. Default 64. */
  readonly keptExecutions: number;
}

/** Defaults of {@link KernelsLimits}. */
export const DEFAULT_KERNELS_LIMITS: KernelsLimits = Object.freeze({
  maxTextBytes: 24 * 1024,
  maxImages: 3,
  maxImageBytes: 512 * 1024,
  tracebackFrames: 4,
  defaultTimeoutS: 30,
  maxTimeoutS: 600,
  maxKernelsPerSession: 4,
  maxKernels: 16,
  idleShutdownMs: 30 * 60_000,
  requestTimeoutMs: 30_000,
  startTimeoutMs: 60_000,
  keptExecutions: 64,
});

const MINIMUMS: Record<keyof KernelsLimits, number> = {
  maxTextBytes: 256,
  maxImages: 0,
  maxImageBytes: 64,
  tracebackFrames: 1,
  defaultTimeoutS: 1,
  maxTimeoutS: 1,
  maxKernelsPerSession: 1,
  maxKernels: 1,
  idleShutdownMs: 1000,
  requestTimeoutMs: 100,
  startTimeoutMs: 1000,
  keptExecutions: 1,
};

/** Checks the `limits` option (invalid values throw `REACTOR_OPTION_INVALID`) and fills in the defaults. */
export function resolveLimits(limits: Partial<KernelsLimits> = {}): KernelsLimits {
  const resolved: Record<string, number> = { ...DEFAULT_KERNELS_LIMITS };
  for (const [key, value] of Object.entries(limits) as Array<[keyof KernelsLimits, unknown]>) {
    if (value === undefined) continue;
    const min = MINIMUMS[key];
    if (min === undefined) {
      throw kernelError(`option "limits" of extension "kernels"`, `has an unknown key ${JSON.stringify(key)}`, { expected: `one of ${Object.keys(MINIMUMS).join(', ')}` }, ErrorCodes.OPTION_INVALID);
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw kernelError(`option "limits.${key}" of extension "kernels"`, 'is invalid', {
        expected: `an integer of at least ${min}`,
        received: typeof value === 'number' ? String(value) : typeof value,
        hint: `leave it out for the default (${DEFAULT_KERNELS_LIMITS[key]})`,
      }, ErrorCodes.OPTION_INVALID);
    }
    resolved[key] = value;
  }
  if ((resolved.defaultTimeoutS ?? 0) > (resolved.maxTimeoutS ?? 0)) resolved.defaultTimeoutS = resolved.maxTimeoutS as number;
  return resolved as unknown as KernelsLimits;
}

const HOW_TO_ENABLE =
  `set ${JUPYTER_ENV.mode}=auto to start a Jupyter Server on loopback (needs a Python with jupyter_server and ipykernel: pip install jupyter_server ipykernel), ` +
  `or ${JUPYTER_ENV.url} and ${JUPYTER_ENV.token} for a server you run whose root directory is the spaces root`;

/** The kernels' source from the option, else the environment. Reads nothing but its arguments. */
export function resolveJupyterSource(option: JupyterOption | undefined, env: NodeJS.ProcessEnv, python?: string): JupyterSource {
  const pythonPath = python ?? (env[JUPYTER_ENV.python]?.trim() || undefined);
  if (option === 'auto') return { kind: 'auto', python: pythonPath };
  if (option === 'off') return { kind: 'off', reason: 'kernels are switched off by the "jupyter" option', hint: 'pass jupyter: "auto" or { url, token }' };
  if (option !== undefined) return remote(option.url, option.token, option.rootDir, 'option "jupyter"');
  const url = env[JUPYTER_ENV.url]?.trim();
  if (url) return remote(url, env[JUPYTER_ENV.token] ?? '', env[JUPYTER_ENV.root]?.trim() || undefined, JUPYTER_ENV.url);
  const mode = env[JUPYTER_ENV.mode]?.trim().toLowerCase();
  if (mode === 'auto') return { kind: 'auto', python: pythonPath };
  if (mode !== undefined && mode !== '' && mode !== 'off') {
    throw kernelError(`environment variable ${JUPYTER_ENV.mode}`, 'has an unknown value', { expected: '"auto" or "off"', received: JSON.stringify(env[JUPYTER_ENV.mode]), hint: HOW_TO_ENABLE }, ErrorCodes.OPTION_INVALID);
  }
  return { kind: 'off', reason: mode === 'off' ? `${JUPYTER_ENV.mode}=off switches kernels off` : 'no Jupyter Server is configured', hint: HOW_TO_ENABLE };
}

function remote(url: string, token: string, rootDir: string | undefined, where: string): JupyterSource {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw kernelError(where, 'is not a URL', { expected: 'http(s)://host:port/ of a Jupyter Server', received: JSON.stringify(url.slice(0, 80)) }, ErrorCodes.OPTION_INVALID);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw kernelError(where, 'is not an http(s) URL', { expected: 'http(s)://host:port/', received: parsed.protocol }, ErrorCodes.OPTION_INVALID);
  }
  if (parsed.searchParams.has('token')) {
    throw kernelError(where, 'carries a token in its query', { hint: `pass the token in ${JUPYTER_ENV.token} (or the option's "token") so it is sent in a header and never logged` }, ErrorCodes.OPTION_INVALID);
  }
  return { kind: 'remote', url: parsed.href, token, rootDir };
}

/**
 * Whether a Python can run the embedded server: it must import
 * `jupyter_server` and `ipykernel`. Answers the reason when it cannot. Runs a
 * short child process; call it once (the extension caches the answer).
 */
export function probePython(python: string): { ok: true } | { ok: false; reason: string } {
  const run = spawnSync(python, ['-c', 'import jupyter_server, ipykernel'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.error) return { ok: false, reason: `${python} cannot be run (${(run.error as NodeJS.ErrnoException).code ?? run.error.message})` };
  if (run.status !== 0) {
    const last = (run.stderr ?? '').trim().split('\n').pop() ?? '';
    return { ok: false, reason: `${python} cannot import jupyter_server and ipykernel (${last || `exit ${String(run.status)}`})` };
  }
  return { ok: true };
}

/** The hint when a Python lacks Jupyter: pip for it (or the usual one), apt on Debian, or another Python. */
export function installHint(python?: string): string {
  return (
    `install jupyter_server and ipykernel with pip: ${python ?? 'python3'} -m pip install jupyter_server ipykernel` +
    (python === undefined ? ' (into your virtual env or conda env: the active one is found through VIRTUAL_ENV / CONDA_PREFIX)' : '') +
    `, or on Debian or Ubuntu: apt-get install python3-jupyter-server python3-ipykernel; or set ${JUPYTER_ENV.python} to a Python that has them`
  );
}

/** The hint when no Python has Jupyter. */
export const INSTALL_HINT = installHint();

/** A Python that can run the embedded server, or why none was found (each candidate tried, with its reason). */
export type FoundPython = { readonly ok: true; readonly python: string } | { readonly ok: false; readonly reason: string; readonly hint: string };

/**
 * Where a Python may be, in the order tried: the active virtual env
 * (`VIRTUAL_ENV`), the active conda env (`CONDA_PREFIX`), `python3` and
 * `python` in each `PATH` folder, then `fallbacks` (Debian's `/usr/bin/python3`).
 * Only files that exist; each once.
 */
export function pythonCandidates(env: NodeJS.ProcessEnv, fallbacks: readonly string[] = [DEFAULT_PYTHON], platform: NodeJS.Platform = process.platform): string[] {
  const windows = platform === 'win32';
  const names = windows ? ['python.exe'] : ['python3', 'python'];
  const found: string[] = [];
  const add = (file: string) => {
    if (found.includes(file)) return;
    try {
      if (statSync(file).isFile()) found.push(file);
    } catch {
      // not there
    }
  };
  const venv = env['VIRTUAL_ENV']?.trim();
  if (venv) for (const name of names) add(path.join(venv, windows ? 'Scripts' : 'bin', name));
  const conda = env['CONDA_PREFIX']?.trim();
  if (conda) for (const name of names) add(windows ? path.join(conda, name) : path.join(conda, 'bin', name));
  for (const dir of (env['PATH'] ?? env['Path'] ?? '').split(path.delimiter)) {
    if (dir.trim() === '' || !path.isAbsolute(dir)) continue; // a relative PATH entry depends on the working folder: never trusted
    for (const name of names) add(path.join(dir, name));
  }
  for (const fallback of fallbacks) add(fallback);
  return found;
}

/**
 * The Python the embedded server runs with when none is configured: the first
 * of {@link pythonCandidates} that imports `jupyter_server` and `ipykernel`
 * (a probe per candidate, until one succeeds — call it once; the extension
 * keeps the answer). When none does, the reason names each one tried.
 */
export function findPython(env: NodeJS.ProcessEnv, probe: (python: string) => { ok: true } | { ok: false; reason: string } = probePython, fallbacks?: readonly string[]): FoundPython {
  const tried: string[] = [];
  for (const python of pythonCandidates(env, fallbacks)) {
    const result = probe(python);
    if (result.ok) return { ok: true, python };
    tried.push(result.reason);
  }
  return {
    ok: false,
    reason: tried.length === 0 ? 'no Python was found (none in VIRTUAL_ENV, CONDA_PREFIX, PATH or /usr/bin/python3)' : `no Python has jupyter_server and ipykernel: ${tried.join('; ')}`,
    hint: INSTALL_HINT,
  };
}

/** A configured Python, checked: it wins over any found one, so it must have Jupyter itself. */
export function checkPython(python: string, probe: (python: string) => { ok: true } | { ok: false; reason: string } = probePython): FoundPython {
  const result = probe(python);
  return result.ok ? { ok: true, python } : { ok: false, reason: result.reason, hint: installHint(python) };
}

/** The scope a token needs for the `kernels` toolset (running code changes the world), unless the operator names others. */
export const KERNELS_SCOPE = 'kernels';

/** RFC 6749's scope-token: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The scopes the `kernels` toolset requires: the `scopes` option, else
 * `["kernels"]`. `[]` requires none — every token then runs code. Invalid
 * values throw `REACTOR_OPTION_INVALID`. With auth off nothing is checked.
 * There is no environment variable for it: a discovered (held) kernels is
 * gated by its package.json declaration before it is imported, which says
 * `["kernels"]`, and the host refuses a module that declares otherwise.
 */
export function resolveScopes(option: readonly string[] | undefined): readonly string[] {
  if (option === undefined) return [KERNELS_SCOPE];
  if (!Array.isArray(option) || option.some((s) => typeof s !== 'string' || !SCOPE_TOKEN.test(s))) {
    throw kernelError('option "scopes" of extension "kernels"', 'is invalid', {
      expected: 'an array of OAuth scope names (printable ASCII, no spaces), e.g. ["kernels"]; [] to require none',
      received: JSON.stringify(option)?.slice(0, 120) ?? typeof option,
      hint: `leave it out for the default (["${KERNELS_SCOPE}"])`,
    }, ErrorCodes.OPTION_INVALID);
  }
  return Object.freeze([...new Set<string>(option)]);
}

/**
 * The variables the embedded server (and its kernels) get beyond the minimal
 * environment: the `passEnv` option, else `REACTOR_JUPYTER_PASS_ENV` (comma
 * list). A credential's name (`REACTOR_MCP_*`, a Jupyter token) is refused.
 */
export function resolvePassEnv(option: readonly string[] | undefined, env: NodeJS.ProcessEnv): readonly string[] {
  const list = option ?? (env[JUPYTER_ENV.passEnv] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  assertPassableEnv(list, option !== undefined ? 'option "passEnv" of extension "kernels"' : `environment variable ${JUPYTER_ENV.passEnv}`);
  return [...new Set(list)];
}

/** The kernelspec allow-list: the option, else `REACTOR_JUPYTER_KERNELSPECS` (comma list), else `python3`. */
export function resolveKernelspecs(option: readonly string[] | undefined, env: NodeJS.ProcessEnv): readonly string[] {
  const list = option ?? (env[JUPYTER_ENV.kernelspecs] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  return list.length > 0 ? [...new Set(list)] : ['python3'];
}
