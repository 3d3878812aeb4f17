/**
 * What an integrator does by hand, as functions: pack the published packages
 * the way a registry would receive them, install the tarballs into an empty
 * npm project, and run the `reactor-mcp-server` bin there. Every child process
 * gets an environment cleaned of the workspace's npm/pnpm settings and of
 * `REACTOR_*` variables, so nothing from this repository leaks into the
 * "outside" project.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The environment of a child process: this one's, minus npm/pnpm settings and `REACTOR_*` variables, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // pnpm passes npm_config_* and npm_* to the scripts it runs; an npm in a temp dir must not inherit them.
    if (/^(npm_|pnpm_|reactor_)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, NO_UPDATE_NOTIFIER: '1', ...extra };
}

/**
 * Fails with a clear message when a package has not been built: the tarballs
 * carry `dist/`, and packing an unbuilt package would test nothing.
 */
export function requireBuilt(repoRoot: string, packageDirs: readonly string[]): void {
  const missing = packageDirs.filter((dir) => !existsSync(join(repoRoot, dir, 'dist', 'index.js')));
  if (missing.length > 0) {
    throw new Error(`not built: ${missing.map((dir) => `${dir}/dist`).join(', ')} missing; run \`pnpm build\` at ${repoRoot} first (\`pnpm test\` builds before testing)`);
  }
}

/**
 * `pnpm pack --pack-destination dest` in a package directory (pnpm rewrites
 * `workspace:` ranges as publishing would). Returns the tarball's path.
 */
export async function packPackage(packageDir: string, dest: string): Promise<string> {
  const own = join(dest, basename(packageDir));
  await mkdir(own, { recursive: true });
  await run('pnpm', ['pack', '--pack-destination', own], { cwd: packageDir, env: cleanEnv() });
  const tarballs = readdirSync(own).filter((f) => f.endsWith('.tgz'));
  if (tarballs.length !== 1) throw new Error(`pnpm pack in ${packageDir} made ${tarballs.length} tarballs in ${own}; expected one`);
  return join(own, tarballs[0]!);
}

/** `npm init -y` and `npm install <tarballs>` in an empty directory; returns npm's output for diagnostics. */
export async function installTarballs(appDir: string, tarballs: readonly string[]): Promise<string> {
  await mkdir(appDir, { recursive: true });
  const env = cleanEnv();
  await run('npm', ['init', '-y'], { cwd: appDir, env });
  try {
    const { stdout, stderr } = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs], { cwd: appDir, env, maxBuffer: 16 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm install of ${tarballs.length} tarballs failed in ${appDir}:\n${stdout}${stderr}`, { cause: error });
  }
}

/** A running `reactor-mcp-server`. */
export interface RunningServer {
  /** The MCP endpoint, from the start-up summary (`http://127.0.0.1:<port>/mcp`). */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with how the process ended. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `command args` in `cwd` and resolves once its start-up summary (the
 * JSON log line carrying `url`) appears on stderr; rejects with the stderr
 * seen when the process ends first.
 */
export function startServer(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunningServer> {
  const child = spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return await exited;
  };
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr });
    lines.on('line', (line) => {
      stderr += `${line}\n`;
      const url = summaryUrl(line);
      if (url !== undefined) resolve({ url, child, stderr: () => stderr, stop });
    });
    child.once('error', (error) => reject(new Error(`could not start ${command}: ${error.message}`)));
    void exited.then(({ code, signal }) => reject(new Error(`${command} ended (code ${code}, signal ${signal}) before serving; its stderr:\n${stderr}`)));
  });
}

/** The `url` of the command's start-up summary line (pino JSON), if this is that line. */
function summaryUrl(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const record = JSON.parse(line) as { url?: unknown; msg?: unknown };
    return typeof record.url === 'string' && typeof record.msg === 'string' && record.msg.includes(' serving ') ? record.url : undefined;
  } catch {
    return undefined;
  }
}
