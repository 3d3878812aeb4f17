/**
 * `pnpm bench`: Reactor's per-request serving against the SDK's own
 * patterns and fastmcp, side by side in one run, every server in its own
 * process on 127.0.0.1. Prints the tables docs/performance.md shows.
 *
 * Flags: `--quick` (a short smoke run), `--only throughput|memory|cold|telemetry|compression|command`
 * (repeatable), `--rounds N`, `--slice-ms N`, `--concurrency N`. The `command` phase (the
 * command as deployed) runs its own rounds: `--command-rounds N` (default 5), 16 in flight.
 */
import os from 'node:os';
import { benchArgs } from './benchArgs.js';
import { measureColdStart } from './driver/coldStart.js';
import { measureCommand } from './driver/command.js';
import { measureCompression } from './driver/compression.js';
import { measureMemory } from './driver/memory.js';
import { measureTelemetryOverhead } from './driver/telemetryOverhead.js';
import { measureThroughput } from './driver/throughput.js';
import { commandTable, cpuComparisonTable, cpuTable, targetRows, targetsTable, throughputTable, type RunResults } from './report.js';
import { wholeOption } from './wholeOption.js';

const values = benchArgs(process.argv.slice(2));
const quick = values.quick === true;
const phases = new Set(values.only ?? ['throughput', 'memory', 'cold', 'telemetry', 'compression', 'command']);
const log = (line: string) => process.stderr.write(`${line}\n`);

const started = performance.now();
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
log(`Reactor MCP benchmark — Node ${process.version}, ${os.cpus().length} cores (${cpu}), ${os.platform()} ${os.release()}`);

const run: RunResults = {
  throughput: phases.has('throughput')
    ? (log('throughput…'),
      await measureThroughput({
        toolCounts: [100, 1000],
        rounds: wholeOption(values.rounds, quick ? 2 : 12),
        sliceMs: wholeOption(values['slice-ms'], quick ? 150 : 250),
        concurrency: wholeOption(values.concurrency, 8),
        warmUpMs: quick ? 500 : 1500,
        progress: log,
      }))
    : undefined,
  memory: phases.has('memory')
    ? (log('memory…'), { ...(await measureMemory({ tools: 1000, batches: quick ? 1 : 3, sessionsPerBatch: quick ? 40 : 100, progress: log })), tools: 1000 })
    : undefined,
  coldStart: phases.has('cold') ? (log('cold start…'), await measureColdStart({ pairs: quick ? 2 : 7, progress: log })) : undefined,
  telemetry: phases.has('telemetry')
    ? (log('telemetry overhead…'), await measureTelemetryOverhead({ tools: 100, rounds: quick ? 4 : 40, sliceMs: quick ? 150 : 400, concurrency: wholeOption(values.concurrency, 8), progress: log }))
    : undefined,
  compression: phases.has('compression') ? (log('compression…'), await measureCompression({ tools: 1000, progress: log })) : undefined,
  command: phases.has('command')
    ? (log('the command as deployed…'),
      await measureCommand({ tools: 100, rounds: wholeOption(values['command-rounds'], quick ? 2 : 5), sliceMs: quick ? 300 : 2000, warmUpMs: quick ? 300 : 2000, concurrency: 16, progress: log }))
    : undefined,
};

const out: string[] = [];
out.push(`Node ${process.version} · ${os.cpus().length} cores (${cpu}) · ${os.platform()} ${os.release()} · run took ${Math.round((performance.now() - started) / 1000)} s${quick ? ' · QUICK (smoke run, figures not meaningful)' : ''}`);
if (run.throughput) out.push('', throughputTable(run.throughput), '', cpuTable(run.throughput), '', cpuComparisonTable(run.throughput));
if (run.command) out.push('', commandTable(run.command));
const rows = targetRows(run);
if (rows.length > 0) out.push('', targetsTable(rows));
process.stdout.write(`\n${out.join('\n')}\n`);
const missed = rows.filter((r) => !r.met);
log(missed.length === 0 ? '\nAll targets met.' : `\n${missed.length} target(s) missed: ${missed.map((r) => r.target).join('; ')}`);
