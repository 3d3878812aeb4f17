/**
 * A real npm registry on loopback: Verdaccio, started as a child process with
 * a throwaway storage folder and one htpasswd user, registration closed.
 *
 * Verdaccio lives in `apps/release/verdaccio/`, a folder with its own
 * package.json and package-lock.json installed with `npm ci` on first use: its
 * ~330 packages stay out of the workspace's pnpm-lock.yaml, and a fresh machine
 * gets exactly the locked tree. (6.8.0 because 6.10 needs Node 22; node-fetch
 * is pinned to 2.7.0 by an npm `overrides` there.)
 *
 * `@reactor/*` is served from local storage only (never proxied, so a package
 * of that name on the public registry cannot leak in); everything else is
 * proxied to the registry npm is configured with, as a company registry would.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './integrator.js';
import { run } from './run.js';

/** The folder holding Verdaccio's package.json, lockfile and launcher (one level above both src/ and dist/). */
export const VERDACCIO_DIR = fileURLToPath(new URL('../verdaccio/', import.meta.url));
const LOCK_MARKER = join(VERDACCIO_DIR, 'node_modules', '.reactor-lock-sha256');

/** A running registry. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** The user the packages are published as. */
  readonly user: string;
  /** An npmrc holding the registry and this user's token (for `npm_config_userconfig`). */
  readonly npmrc: string;
  /** The storage folder (tarballs land in `<storage>/<name>/`). */
  readonly storage: string;
  /** An environment for publishing tools: cleaned of workspace npm settings, pointed at this registry with the token. */
  publishEnv(): NodeJS.ProcessEnv;
  /** Everything Verdaccio logged so far (warnings and errors). */
  log(): string;
  /** Stops Verdaccio and resolves when it has exited. */
  stop(): Promise<void>;
}

/**
 * Installs Verdaccio from its lockfile when it is missing or the lockfile
 * changed since the last install. Returns whether it installed.
 */
export async function ensureVerdaccio(): Promise<boolean> {
  const lockHash = createHash('sha256').update(readFileSync(join(VERDACCIO_DIR, 'package-lock.json'))).digest('hex');
  if (existsSync(LOCK_MARKER) && readFileSync(LOCK_MARKER, 'utf8') === lockHash) return false;
  await run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: VERDACCIO_DIR, env: cleanEnv(), timeoutMs: 300_000 });
  writeFileSync(LOCK_MARKER, lockHash);
  return true;
}

/** The registry (and CA file) npm is configured with here: the uplink for everything not `@reactor/*`. */
async function upstream(): Promise<{ registry: string; cafile: string | undefined }> {
  const env = cleanEnv();
  const get = async (key: string) => (await run('npm', ['config', 'get', key], { cwd: VERDACCIO_DIR, env })).stdout.trim();
  const registry = await get('registry');
  const cafile = await get('cafile');
  return { registry, cafile: cafile === '' || cafile === 'null' || cafile === 'undefined' ? undefined : cafile };
}

function configYaml(upstreamRegistry: string): string {
  return [
    '# Written by apps/release for one rehearsal; thrown away with its folder.',
    'storage: ./storage',
    'auth:',
    '  htpasswd:',
    '    file: ./htpasswd',
    '    max_users: -1 # registration closed: only the user written to htpasswd',
    'uplinks:',
    '  upstream:',
    `    url: ${JSON.stringify(upstreamRegistry)}`,
    'packages:',
    "  '@reactor/*':",
    '    access: $all',
    '    publish: $authenticated',
    '    unpublish: $authenticated',
    "  '**':",
    '    access: $all',
    '    proxy: upstream',
    'web:',
    '  enable: false',
    'log: { type: stderr, format: json, level: warn }',
    '',
  ].join('\n');
}

/**
 * Starts Verdaccio in `dir` (an empty folder that becomes its config and
 * storage) on a free loopback port, writes the htpasswd user, logs it in and
 * writes an npmrc with its token. Rejects, with Verdaccio's log, when it
 * cannot start.
 */
export async function startRegistry(dir: string): Promise<LocalRegistry> {
  await ensureVerdaccio();
  const { registry: upstreamRegistry, cafile } = await upstream();
  const user = 'reactor-release';
  const password = randomBytes(18).toString('base64url');
  // Verdaccio's htpasswd plugin reads `{SHA}` entries (base64 SHA-1), the format `htpasswd -s` writes.
  writeFileSync(join(dir, 'htpasswd'), `${user}:{SHA}${createHash('sha1').update(password).digest('base64')}\n`);
  writeFileSync(join(dir, 'config.yaml'), configYaml(upstreamRegistry));

  const env = cleanEnv(cafile === undefined ? {} : { NODE_EXTRA_CA_CERTS: cafile });
  const child = spawn(process.execPath, [join(VERDACCIO_DIR, 'serve.mjs'), join(dir, 'config.yaml')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };

  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve((JSON.parse(line) as { url: string }).url);
      } catch {
        reject(new Error(`Verdaccio printed ${JSON.stringify(line)} instead of its URL; its log:\n${log}`));
      }
    });
    child.once('error', (error) => reject(new Error(`could not start Verdaccio: ${error.message}`)));
    void exited.then(() => reject(new Error(`Verdaccio exited before listening (code ${child.exitCode}, signal ${child.signalCode}); its log:\n${log}`)));
  });

  try {
    const token = await login(url, user, password);
    const npmrc = join(dir, 'npmrc');
    writeFileSync(npmrc, `registry=${url}\n${url.replace(/^https?:/, '')}:_authToken=${token}\n`);
    const storage = join(dir, 'storage');
    return {
      url,
      user,
      npmrc,
      storage,
      publishEnv: () => cleanEnv({ npm_config_registry: url, npm_config_userconfig: npmrc }),
      log: () => log,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `npm login`'s request, answered with a token: the user authenticates with its password (registration being closed). */
async function login(registry: string, user: string, password: string): Promise<string> {
  const response = await fetch(new URL(`-/user/org.couchdb.user:${encodeURIComponent(user)}`, registry), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    body: JSON.stringify({ name: user, password }),
  });
  const body = (await response.json()) as { token?: unknown; error?: unknown };
  if (!response.ok || typeof body.token !== 'string') {
    throw new Error(`logging in to Verdaccio at ${registry} as "${user}" failed: HTTP ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}
