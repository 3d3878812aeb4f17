/**
 * The telemetry phase (`pnpm bench --only telemetry`): every host of the
 * telemetry process, and the process with a deployment's context manager,
 * answer every slice, and each slice is read as a rate and as CPU per request.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as TelemetryOverheadModule from '../src/driver/telemetryOverhead.js';
import type * as ProcessesModule from '../src/driver/processes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// The built driver: it starts `dist/servers/reactor.js` in child processes (`pnpm test` builds first).
const built = async <T>(file: string) => (await import(pathToFileURL(path.resolve(here, '../dist/driver', file)).href)) as T;

describe('the telemetry phase', () => {
  it('measures every slice of both processes in each round: off, on, the no-op providers, each half, the floor, and off and on with the context manager', async () => {
    const { measureTelemetryOverhead } = await built<typeof TelemetryOverheadModule>('telemetryOverhead.js');
    const result = await measureTelemetryOverhead({ tools: 10, rounds: 2, sliceMs: 100, concurrency: 2, progress: () => undefined });
    const series = [result.off, result.on, result.apiOnly, result.tracesOnly, result.metricsOnly, result.sdkFloor, result.managedOff, result.managedOn];
    const cpu = [result.cpuOff, result.cpuOn, result.cpuApiOnly, result.cpuTracesOnly, result.cpuMetricsOnly, result.cpuSdkFloor, result.cpuManagedOff, result.cpuManagedOn];
    for (const rates of series) {
      expect(rates).toHaveLength(2);
      for (const rate of rates) expect(rate).toBeGreaterThan(0);
    }
    for (const micros of cpu) {
      expect(micros).toHaveLength(2);
      for (const value of micros) expect(value).toBeGreaterThan(0);
    }
  }, 60_000);

  it('the context manager is registered only where asked: a server started with --context-manager keeps the active context across an await, one without does not', async () => {
    const { startServer } = await built<typeof ProcessesModule>('processes.js');
    const managed = await startServer('managed', 'reactor', ['--tools', '2', '--telemetry', '--context-manager']);
    const plain = await startServer('plain', 'reactor', ['--tools', '2', '--telemetry']);
    try {
      expect(managed.detail).toEqual({ contextFollowsAwait: true });
      expect(plain.detail).toEqual({ contextFollowsAwait: false });
    } finally {
      await managed.stop();
      await plain.stop();
    }
  }, 30_000);
});
