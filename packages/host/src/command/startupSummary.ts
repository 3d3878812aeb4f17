/**
 * The command's start-up log: one summary line (what was loaded, what is
 * held, what was skipped and why, and where to connect), and a warning for
 * each name in `--toolsets` that no extension declares.
 */
import { describeAuth } from './auth/summary.js';
import type { RunningCommand } from './commandTypes.js';
import type { CommandOptions } from './commandOptions.js';
import { didYouMean } from '../kernel/didYouMean.js';
import { parseSelection, unknownNames } from '../selection/selection.js';
import type { McpHost } from '../host/host.js';
import type { Logger } from '../kernel/logger.js';

/** One start-up summary: what was loaded, what is held, what was skipped and why, and where to connect. */
export function logSummary(host: McpHost, options: CommandOptions, running: Pick<RunningCommand, 'url' | 'auth'>, logger: Logger): void {
  const { url } = running;
  const report = host.report();
  const label = (e: { name: string; version: string }) => `${e.name}@${e.version}`;
  const loaded = report.extensions.filter((e) => e.state === 'active').map(label);
  const held = report.extensions.filter((e) => e.state === 'held').map((e) => `${label(e)} (${e.activationEvents.join(', ')})`);
  const skipped = report.extensions
    .filter((e) => e.state !== 'active' && e.state !== 'held')
    .map((e) => ({ extension: label(e), state: e.state, why: report.problems.filter((p) => p.extension === e.name).map((p) => `[${p.code}] ${p.message}`) }));
  const where = url === undefined ? 'over stdio' : `at ${url}`;
  const counts = `${loaded.length} loaded, ${held.length} held, ${skipped.length} skipped`;
  const fields = { transport: options.transport, url, loaded, held, skipped, toolsets: host.declaredToolsets().map((t) => t.name), ...(options.readOnly ? { readOnly: true } : {}), ...(running.auth ? { auth: running.auth } : {}) };
  const notes = [...(options.readOnly ? ['read-only: only tools annotated readOnlyHint are served'] : []), ...(running.auth ? [describeAuth(running.auth)] : [])];
  const message = `${options.name} serving ${counts} extension(s) ${where}${notes.map((note) => ` (${note})`).join('')}`;
  if (skipped.length > 0) logger.warn(fields, message);
  else logger.info(fields, message);
}

/**
 * `--toolsets only=sandboxs`: a name nobody declares is accepted (a held
 * extension's toolsets are declared, so this is a typo or a missing package);
 * say so at start-up, with the nearest declared name, not at the first request.
 */
export function warnUnknownToolsets(host: McpHost, options: CommandOptions, logger: Logger): void {
  if (options.toolsets === undefined) return;
  const declared = host.declaredToolsets();
  const names = declared.map((t) => t.name);
  for (const name of unknownNames(declared, parseSelection(options.toolsets))) {
    const suggestion = didYouMean(name, names);
    logger.warn(
      { toolset: name, declared: names },
      `--toolsets names toolset "${name}", which no installed extension declares, so it selects nothing; ${suggestion === '' ? `declared: ${names.join(', ') || '(none)'}` : suggestion}`,
    );
  }
}
