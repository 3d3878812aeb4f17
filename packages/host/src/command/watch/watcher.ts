/**
 * Watches the application's package.json and its linked extension packages.
 * A change to a package's sources runs its `build` script first (its output
 * is then what reloads); a change to built output, to a package.json, or to a
 * package with no build script reloads directly. Changes are batched: events
 * arriving while a build or reload runs make one more reload afterwards, not
 * one per file.
 */
import { spawn } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { LinkedPackage } from './linkedPackages.js';

/** What the watcher needs. */
export interface WatchOptions {
  readonly root: string;
  readonly packages: readonly LinkedPackage[];
  readonly logger: Logger;
  /** Reloads the extensions; called after builds, one at a time. */
  reload(reason: string): Promise<void>;
  /** How long to wait for more events before acting, ms. Default 100. */
  readonly settleMs?: number;
}

/** A running watcher. */
export interface Watching {
  close(): void;
}

/** Directories whose changes are output or noise, never sources. */
const OUTPUT = new Set(['dist', 'build', 'lib', 'out']);
const IGNORED = new Set(['node_modules', '.git', '.turbo', 'coverage']);

/** Starts watching; `reload` is called after each settled batch of changes. */
export function watchExtensions(options: WatchOptions): Watching {
  const watchers: FSWatcher[] = [];
  const pendingBuilds = new Set<LinkedPackage>();
  const reasons = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), options.settleMs ?? 100);
  };
  const flush = async (): Promise<void> => {
    if (running) {
      await running;
      if (reasons.size > 0) schedule();
      return;
    }
    const builds = [...pendingBuilds];
    const why = [...reasons].join(', ');
    pendingBuilds.clear();
    reasons.clear();
    running = (async () => {
      for (const pkg of builds) await build(pkg, options.logger);
      if (!closed) await options.reload(why);
    })().catch((error: unknown) => options.logger.error({ err: error }, `watch: reload failed: ${errorMessage(error)}`));
    await running;
    running = undefined;
  };

  for (const pkg of options.packages) {
    const watcher = watch(pkg.dir, { recursive: true }, (_event, file) => {
      if (file === null || closed) return;
      const parts = file.split(path.sep);
      if (parts.some((p) => IGNORED.has(p))) return;
      const output = OUTPUT.has(parts[0] ?? '');
      // While this package builds, its own output events are the build's, already covered by the reload after it.
      if (output && (pendingBuilds.has(pkg) || running)) return;
      if (!output && pkg.buildable && file !== 'package.json') pendingBuilds.add(pkg);
      reasons.add(`${pkg.name}/${file.split(path.sep).join('/')}`);
      schedule();
    });
    watchers.push(watcher);
  }
  const app = watch(path.join(options.root, 'package.json'), () => {
    if (closed) return;
    reasons.add('package.json');
    schedule();
  });
  watchers.push(app);
  options.logger.info({ packages: options.packages.map((p) => p.name) }, `watch: following ${options.packages.length} linked extension package(s) and package.json`);
  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}

/** `npm run build` in the package (npm is always there; it finds the workspace's binaries too). */
function build(pkg: LinkedPackage, logger: Logger): Promise<void> {
  logger.info({ package: pkg.name }, `watch: building ${pkg.name}`);
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '--silent'], { cwd: pkg.dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm run build in ${pkg.dir} exited ${code}: ${stderr.trim().slice(-2000)}`))));
  });
}
