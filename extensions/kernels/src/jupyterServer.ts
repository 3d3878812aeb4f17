/**
 * The embedded Jupyter Server (`REACTOR_JUPYTER=auto`): started on loopback,
 * on a free port, with a random token, its runtime files in a temp folder,
 * terminals off. Stopped with SIGTERM (Jupyter then shuts its kernels down),
 * SIGKILL if it does not exit in time; killed too if this process exits first.
 *
 * Every kernel inherits the server's environment, and kernel code can read
 * the server's own (`/proc/<ppid>/environ`) and its runtime folder. So the
 * server gets a minimal environment — {@link JUPYTER_SERVER_ENV}, never this
 * process's secrets — and its token travels in a config file of a private
 * folder (never the environment, nor the command line `ps` shows), removed
 * as soon as the server answers, with the runtime files that repeat the token
 * (`jpserver-*.json`, `jpserver-*-open.html`) and the cookie secret.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCodes, type Logger } from '@reactor/host';
import { kernelError } from './errors.js';

/**
 * The variables the embedded server — and so every kernel — gets from this
 * process's environment, when set: what programs need to run (the MCP SDK's
 * default for stdio servers, plus locale, time zone, temp folder) and where
 * Jupyter finds its config and kernelspecs. Nothing else: no credential of
 * this server reaches code a model writes.
 */
export const JUPYTER_SERVER_ENV: readonly string[] = Object.freeze([
  'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER',
  'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'LC_MESSAGES', 'LC_MONETARY', 'LC_NUMERIC', 'LC_TIME', 'TZ', 'TMPDIR',
  'JUPYTER_CONFIG_DIR', 'JUPYTER_CONFIG_PATH', 'JUPYTER_DATA_DIR', 'JUPYTER_PATH', 'JUPYTER_PLATFORM_DIRS', 'IPYTHONDIR',
  // Windows
  'APPDATA', 'COMSPEC', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATHEXT', 'PROCESSOR_ARCHITECTURE', 'PROGRAMDATA', 'PROGRAMFILES', 'PROGRAMFILES(X86)', 'PROGRAMW6432', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'WINDIR',
]);

/** Names that are this server's credentials (or Jupyter's token): never passed, even when asked. */
const SECRET_NAME = /^(REACTOR_MCP_|REACTOR_JUPYTER_TOKEN$|JUPYTER_TOKEN)/i;

/** Checks extra variable names to pass to the embedded server (`passEnv`); a credential's name is refused. */
export function assertPassableEnv(names: readonly string[], where: string): void {
  for (const name of names) {
    if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw kernelError(where, 'is invalid', { expected: 'environment variable names (letters, digits, "_")', received: JSON.stringify(name) }, ErrorCodes.OPTION_INVALID);
    }
    if (SECRET_NAME.test(name)) {
      throw kernelError(where, `names ${name}, a credential of this server`, {
        hint: 'kernels run code a model writes: they never get REACTOR_MCP_* variables or a Jupyter token; pass only what the code needs (PYTHONPATH, proxies…)',
      }, ErrorCodes.OPTION_INVALID);
    }
  }
}

/**
 * The environment of the embedded server: the {@link JUPYTER_SERVER_ENV}
 * variables of `from` that are set, plus `pass` (already checked). Values
 * that are exported shell functions (`() {…`) are left out.
 */
export function jupyterServerEnv(from: NodeJS.ProcessEnv, pass: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...JUPYTER_SERVER_ENV, ...pass]) {
    const value = from[name];
    if (value === undefined || value.startsWith('()') || SECRET_NAME.test(name)) continue;
    env[name] = value;
  }
  return env;
}

/** Options of {@link startJupyterServer}. */
export interface StartJupyterOptions {
  /** The Python that has jupyter_server and ipykernel. */
  readonly python: string;
  /** The server's root directory: notebooks' paths are relative to it. */
  readonly rootDir: string;
  /** Where the server's own log lines go (at debug; the token redacted). */
  readonly logger: Logger;
  /** How long starting may take, in ms. */
  readonly startTimeoutMs: number;
  /** Extra `--Key=value` arguments (e.g. kernel culling). */
  readonly extraArgs?: readonly string[];
  /** Where the {@link JUPYTER_SERVER_ENV} values are read. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** More variable names to pass from `env` (PYTHONPATH, proxies…); a credential's name is refused. */
  readonly passEnv?: readonly string[];
}

/** A running embedded server. */
export interface JupyterServerProcess {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  readonly token: string;
  readonly rootDir: string;
  readonly pid: number | undefined;
  /** True until the process exits. */
  alive(): boolean;
  /** Resolves when the process exits (for whatever reason), with its code or signal. */
  readonly exited: Promise<string>;
  /** Stops it (SIGTERM, then SIGKILL after `graceMs`) and removes its runtime and checkpoints folders. */
  stop(graceMs?: number): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; Jupyter Server 1.x cannot report a port 0 it was given). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a Jupyter Server and resolves once it answers `/api/status` with the token. */
export async function startJupyterServer(options: StartJupyterOptions): Promise<JupyterServerProcess> {
  const passEnv = options.passEnv ?? [];
  assertPassableEnv(passEnv, 'option "passEnv" of the embedded Jupyter Server');
  const port = await freePort();
  const token = randomBytes(24).toString('hex');
  const runtimeDir = mkdtempSync(join(tmpdir(), 'reactor-jupyter-'));
  // Jupyter keeps a checkpoint of each notebook it saves; under the root they would show up in the
  // spaces as `.ipynb_checkpoints/` folders, so they go here (mirroring the notebooks' folders) instead.
  const checkpointsDir = mkdtempSync(join(tmpdir(), 'reactor-jupyter-checkpoints-'));
  // The token, in a file only this user can read, in a folder kernels are never told about; removed once the server runs.
  const configDir = mkdtempSync(join(tmpdir(), 'reactor-jupyter-config-'));
  const configFile = join(configDir, 'jupyter_server_config.json');
  writeFileSync(configFile, JSON.stringify({ ServerApp: { token } }), { mode: 0o600 });
  const forgetSecrets = () => {
    rmSync(configDir, { recursive: true, force: true });
    // The server read them when it started; kernel code could read them from here.
    for (const name of safeReaddir(runtimeDir)) {
      if (name.startsWith('jpserver-') || name === 'jupyter_cookie_secret') rmSync(join(runtimeDir, name), { force: true });
    }
  };
  const args = [
    '-m', 'jupyter_server',
    `--config=${configFile}`,
    '--ServerApp.ip=127.0.0.1',
    `--ServerApp.port=${port}`,
    '--ServerApp.port_retries=0',
    '--ServerApp.open_browser=False',
    `--ServerApp.root_dir=${options.rootDir}`,
    '--ServerApp.terminals_enabled=False',
    `--FileCheckpoints.root_dir=${checkpointsDir}`,
    ...(process.getuid?.() === 0 ? ['--allow-root'] : []),
    ...(options.extraArgs ?? []),
  ];
  const child: ChildProcess = spawn(options.python, args, {
    cwd: options.rootDir,
    env: { ...jupyterServerEnv(options.env ?? process.env, passEnv), JUPYTER_RUNTIME_DIR: runtimeDir, PYTHONUNBUFFERED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}/`;
  const redact = (line: string) => line.split(token).join('[token]');
  const recent: string[] = [];
  let exitedWith: string | undefined;
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => {
      exitedWith = `could not be run (${(error as NodeJS.ErrnoException).code ?? error.message})`;
      resolve(exitedWith);
    });
    child.once('exit', (code, signal) => {
      exitedWith = signal ? `signal ${signal}` : `exit code ${String(code)}`;
      resolve(exitedWith);
    });
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let announced: () => void = () => {};
  const running = new Promise<void>((resolve) => (announced = resolve));
  const onLine = (line: string) => {
    const clean = redact(line);
    recent.push(clean);
    if (recent.length > 20) recent.shift();
    options.logger.debug({ jupyter: clean }, 'jupyter server');
    if (/is running at|http:\/\/127\.0\.0\.1:\d+\//.test(line)) announced();
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        onLine(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
      }
    });
  }

  const stop = async (graceMs = 10_000) => {
    process.removeListener('exit', killOnExit);
    if (exitedWith === undefined) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    rmSync(runtimeDir, { recursive: true, force: true });
    rmSync(configDir, { recursive: true, force: true });
    rmSync(checkpointsDir, { recursive: true, force: true });
  };

  const failed = (problem: string) =>
    kernelError('the embedded Jupyter Server', problem, {
      received: recent.length > 0 ? `its last lines: ${recent.slice(-5).join(' | ')}` : 'no output',
      hint: `check that "${options.python} -m jupyter_server --version" works; or set REACTOR_JUPYTER_URL to a server you run`,
    });

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), options.startTimeoutMs)));
  try {
    const first = await Promise.race([running.then(() => 'running' as const), exited.then(() => 'exited' as const), timedOut]);
    if (first === 'exited') throw failed(`did not start (${exitedWith ?? 'exited'})`);
    if (first === 'timeout') throw failed(`did not start within ${options.startTimeoutMs} ms`);
    const status = await fetch(new URL('api/status', url), { headers: { Authorization: `token ${token}` }, signal: AbortSignal.timeout(options.startTimeoutMs) });
    if (!status.ok) throw failed(`answered ${status.status} to /api/status with its own token`);
    forgetSecrets();
  } catch (error) {
    await stop(2000);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { url, token, rootDir: options.rootDir, pid: child.pid, alive: () => exitedWith === undefined, exited, stop };
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
