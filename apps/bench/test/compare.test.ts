/**
 * `node apps/bench/dist/compare.js`: two builds of the host served from one
 * process, the load alternating between them, each slice read as server CPU
 * per request.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as CompareModule from '../src/driver/compare.js';
import type * as ProcessesModule from '../src/driver/processes.js';
import { comparisonReport } from '../src/driver/compare.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** This workspace's own build of the host: compared with itself, both sides must answer. */
const hostDist = path.resolve(here, '../../../packages/host/dist');

describe('compareBuilds', () => {
  it('serves both builds from one process and reads each slice as CPU per request answered', async () => {
    // The built driver: it starts `dist/servers/builds.js` in a child process (`pnpm test` builds first).
    const { compareBuilds } = (await import(pathToFileURL(path.resolve(here, '../dist/driver/compare.js')).href)) as typeof CompareModule;
    const comparison = await compareBuilds({ before: hostDist, tools: 10, era: '2026', method: 'tools/call', sliceMs: 250, rounds: 2, concurrency: 2, pin: false });
    expect(comparison.before).toHaveLength(2);
    expect(comparison.after).toHaveLength(2);
    for (const slice of [...comparison.before, ...comparison.after]) {
      // runLoad checks every answer, so a build that answered wrongly would have thrown.
      expect(slice.requests).toBeGreaterThan(0);
      expect(slice.cpuMicros).toBeGreaterThan(0);
    }
    expect(comparison.differences).toEqual(comparison.after.map((a, i) => a.cpuMicros - comparison.before[i]!.cpuMicros));
  }, 60_000);

  it('with telemetry, both builds record spans through the SDK: every request answered was exported as a span', async () => {
    const { compareBuilds } = (await import(pathToFileURL(path.resolve(here, '../dist/driver/compare.js')).href)) as typeof CompareModule;
    const comparison = await compareBuilds({ before: hostDist, tools: 10, era: '2026', method: 'tools/call', sliceMs: 200, rounds: 1, concurrency: 2, pin: false, telemetry: true });
    const measured = [...comparison.before, ...comparison.after].reduce((sum, slice) => sum + slice.requests, 0);
    // The warm-up's requests are traced too, so there are more spans than measured requests, never fewer.
    expect(comparison.exportedSpans).toBeGreaterThanOrEqual(measured);
    expect(comparisonReport(comparison)).toContain(`OpenTelemetry on in both builds: ${comparison.exportedSpans} spans exported.`);
  }, 60_000);

  it('refuses a directory that holds no build, saying where one must be', async () => {
    const { compareBuilds } = (await import(pathToFileURL(path.resolve(here, '../dist/driver/compare.js')).href)) as typeof CompareModule;
    await expect(compareBuilds({ before: path.join(here, 'no-such-build'), tools: 10, era: '2026', method: 'tools/call', sliceMs: 100, rounds: 1, concurrency: 1, pin: false })).rejects.toThrow(/cannot load the build to compare.*cp -r packages\/host\/dist packages\/host\/dist-before/s);
  }, 60_000);
});

describe('comparisonReport', () => {
  it('lists every round, then the medians, the median difference per pair and how many pairs the build after won', () => {
    const slice = (cpuMicros: number) => ({ requests: 1000, rate: 5000, cpuMicros });
    const report = comparisonReport({ before: [slice(200), slice(180), slice(190)], after: [slice(190), slice(185), slice(170)], differences: [-10, 5, -20], pinned: true });
    expect(report.split('\n')).toEqual([
      '| round | before µs/request | after µs/request | after − before |',
      '| --- | --- | --- | --- |',
      '| 1 | 200.0 | 190.0 | -10.0 |',
      '| 2 | 180.0 | 185.0 | +5.0 |',
      '| 3 | 190.0 | 170.0 | -20.0 |',
      '',
      'Server CPU per request, median: before 190.0 µs, after 185.0 µs; median difference per pair -10.0 µs (-5.3%).',
      'Requests per second, median: before 5000, after 5000; after ÷ before per pair, median 1.000×.',
      'The build after cost less in 2 of 3 pairs. Server and load generator pinned to CPUs of their own.',
    ]);
  });

  it('names the sides as told (Node flags: without, and the flags), and gives the rate ratio per pair', () => {
    const slice = (cpuMicros: number, rate: number) => ({ requests: 1000, rate, cpuMicros });
    const report = comparisonReport(
      { before: [slice(200, 5000), slice(180, 5200)], after: [slice(170, 5500), slice(175, 5300)], differences: [-30, -5], pinned: false },
      { before: 'without', after: '--single-threaded-gc' },
    );
    expect(report).toContain('| round | without µs/request | --single-threaded-gc µs/request | --single-threaded-gc − without |');
    // Pairs: 5500/5000 = 1.1, 5300/5200 ≈ 1.019: median ≈ 1.060.
    expect(report).toContain('Requests per second, median: without 5100, --single-threaded-gc 5400; --single-threaded-gc ÷ without per pair, median 1.060×.');
    expect(report).toContain('"--single-threaded-gc" cost less in 2 of 2 pairs. Not pinned');
  });
});

describe('compareNodeFlags', () => {
  it('serves the same build from two processes, the second with the flags, and pairs their slices', async () => {
    const { compareNodeFlags } = (await import(pathToFileURL(path.resolve(here, '../dist/driver/compare.js')).href)) as typeof CompareModule;
    const comparison = await compareNodeFlags({ flags: ['--single-threaded-gc'], tools: 10, era: '2026', method: 'tools/call', sliceMs: 200, rounds: 2, concurrency: 2 });
    expect(comparison.before).toHaveLength(2);
    expect(comparison.after).toHaveLength(2);
    for (const slice of [...comparison.before, ...comparison.after]) expect(slice.requests).toBeGreaterThan(0);
    expect(comparison.pinned).toBe(false);
  }, 60_000);

  it('starts a server process with the Node flags it is given (its command line carries them)', async () => {
    const { startServer } = (await import(pathToFileURL(path.resolve(here, '../dist/driver/processes.js')).href)) as typeof ProcessesModule;
    const server = await startServer('reactor', 'reactor', ['--tools', '1'], ['--single-threaded-gc']);
    try {
      const commandLine = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
      expect(commandLine).toContain('--single-threaded-gc');
      expect(commandLine).toContain('--expose-gc');
    } finally {
      await server.stop();
    }
  }, 60_000);
});
