/** The report's tables from a run's series: rates, and the server's CPU per request beside them. */
import { describe, expect, it } from 'vitest';
import type { ScenarioKey, SeriesByScenario, ThroughputResults } from '../src/driver/throughput.js';
import { SCENARIOS } from '../src/driver/throughput.js';
import { cpuComparisonTable, cpuTable, targetRows } from '../src/report.js';

/** Every scenario at `value` in each of three rounds, but those given. */
function series(value: number, given: Partial<Record<ScenarioKey, number[]>>): SeriesByScenario {
  const all = Object.fromEntries((Object.keys(SCENARIOS) as ScenarioKey[]).map((k) => [k, given[k] ?? [value, value, value]])) as Record<ScenarioKey, number[]>;
  return new Map([[100, all]]);
}

describe('the CPU tables', () => {
  const results: ThroughputResults = {
    rates: series(1000, { 'call.reactor2026': [4000, 5000, 4500], 'call.ceiling2026': [20000, 20000, 18000] }),
    cpu: series(100, { 'call.reactor2026': [200, 180, 190], 'call.ceiling2026': [40, 30, 38], 'call.reactorTelemetry2026': [230, 220, 210], 'call.reactorTelemetryOff2026': [200, 200, 200] }),
  };

  it('shows each scenario\'s median µs per request', () => {
    const table = cpuTable(results);
    expect(table).toMatch(/tools\/call — Reactor, 2026-07-28 \(fast path[^|]*\|\s*190\s*\|/);
    expect(table).toMatch(/tools\/call — ceiling[^|]*\|\s*38\.0\s*\|/);
  });

  it('compares scenarios by the median of per-round CPU ratios, lower being cheaper', () => {
    const table = cpuComparisonTable(results);
    // Rounds: 200/40 = 5, 180/30 = 6, 190/38 = 5: median 5.
    expect(table).toMatch(/Reactor ÷ bare node:http \(same bytes\)\s*\|\s*5\.00× \(190 vs 38\.0 µs\)/);
    // Rounds: 1.15, 1.10, 1.05: median 1.10.
    expect(table).toMatch(/OpenTelemetry on ÷ off \(one process\)\s*\|\s*1\.10×/);
  });

  it('leaves the targets judged by rate', () => {
    const ceiling = targetRows({ throughput: results, memory: undefined, coldStart: undefined }).find((r) => r.target.includes('bare node:http'));
    expect(ceiling?.measured).toMatch(/^0\.25×/);
    expect(ceiling?.met).toBe(false);
  });
});

describe('the telemetry row', () => {
  it("judges on ÷ off by rate, and splits the overhead: the host alone, spans alone, the histogram alone, the SDK's floor any host is held to, and the set-up a deployment runs", () => {
    const telemetry = {
      tools: 100,
      off: [5000, 5000, 5000],
      on: [4000, 4500, 4200],
      apiOnly: [5000, 4900, 5100],
      tracesOnly: [4400, 4400, 4400],
      metricsOnly: [4900, 4900, 4900],
      sdkFloor: [4300, 4600, 4400],
      managedOff: [4500, 4500, 4500],
      managedOn: [3500, 3600, 3400],
      cpuOff: [160, 160, 160],
      cpuOn: [200, 190, 195],
      cpuApiOnly: [161, 162, 163],
      cpuTracesOnly: [185, 185, 185],
      cpuMetricsOnly: [166, 166, 166],
      cpuSdkFloor: [190, 185, 188],
      cpuManagedOff: [175, 175, 175],
      cpuManagedOn: [225, 220, 230],
    };
    const row = targetRows({ throughput: undefined, memory: undefined, coldStart: undefined, telemetry }).find((r) => r.target.includes('OpenTelemetry on'));
    // Rounds: 0.80, 0.90, 0.84: median 0.84.
    expect(row?.measured).toMatch(/^0\.84× \(rounds: 0\.80×–0\.90×/);
    expect(row?.measured).toContain('spans alone 0.88× (185 µs), the histogram alone 0.98× (166 µs)');
    // Rounds: 0.86, 0.92, 0.88: median 0.88; CPU median 188.
    expect(row?.measured).toContain("the SDK's floor, its span and point around an untraced host with none of the host's plumbing: 0.88× (188 µs), the best any host could reach here");
    // Against the first process's off: 0.70, 0.72, 0.68 (median 0.70); its own off 0.90.
    expect(row?.measured).toContain("as deployed, with the context manager the Node SDK registers, in a process of its own: on 0.70× of the first process's off (225 µs), its own off 0.90× (175 µs))");
    expect(row?.met).toBe(false);
  });
});
