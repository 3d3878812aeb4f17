/** The command phase's arithmetic: Redis commands counted around the slices, a process's CPU time from /proc, the report's rows. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandDelta, parseCommandStats, procCpuMicros, type CommandPhaseResult } from '../src/driver/command.js';
import { commandTable, redisCommandsPerCall, targetRows } from '../src/report.js';

const INFO = '# Commandstats\r\ncmdstat_set:calls=12,usec=80,usec_per_call=6.67,rejected_calls=0,failed_calls=0\r\ncmdstat_info:calls=9,usec=300\r\ncmdstat_hget:calls=3,usec=9\r\n';

describe('Redis commands (INFO commandstats)', () => {
  it('are read by name, the INFO the phase sends itself left out', () => {
    expect(parseCommandStats(INFO)).toEqual({ set: 12, hget: 3 });
  });
  it('are counted as what changed between two readings, new commands included', () => {
    expect(commandDelta({ set: 10, hget: 3 }, { set: 12, hget: 3, evalsha: 4 })).toEqual({ set: 2, evalsha: 4 });
  });
});

describe('a process CPU time from /proc/<pid>/stat', () => {
  it('is utime + stime (clock ticks of 10 ms), whatever spaces its name holds', () => {
    const stat = '4242 (node my server) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0 1000 0 0';
    expect(procCpuMicros(stat)).toBe(3_000_000);
  });
  it('reads this process (Linux)', () => {
    expect(procCpuMicros(readFileSync('/proc/self/stat', 'utf8'))).toBeGreaterThan(0);
  });
});

function phase(overrides: Partial<CommandPhaseResult> = {}): CommandPhaseResult {
  return {
    tools: 100,
    concurrency: 16,
    rates: { ceiling: [1000, 1000, 1000], defaults: [700, 800, 750], pretty: [300, 300, 300], redis: [720, 760, 740] },
    cpu: { ceiling: [100, 100, 100], defaults: [150, 150, 150], pretty: [400, 400, 400], redis: [155, 155, 155] },
    logBytes: { defaults: 1024, pretty: 2048, redis: 1024 },
    loadBefore: [1, 2, 3],
    loadAfter: [1.5, 2, 3],
    redisDuringLoad: { set: 10 },
    redisLoadSeconds: 10,
    redisRequests: 50_000,
    redisIdle: { set: 10 },
    redisIdleSeconds: 10,
    ...overrides,
  };
}

describe('the report of the command phase', () => {
  it('counts no Redis command per call when the slices saw only the idle heartbeat', () => {
    expect(redisCommandsPerCall(phase())).toBe(0);
  });
  it('counts the commands beyond the heartbeat per call', () => {
    expect(redisCommandsPerCall(phase({ redisDuringLoad: { set: 10, hget: 50_000 } }))).toBe(1);
  });
  it('judges the targets on medians of per-round ratios, with the load average beside them', () => {
    const rows = targetRows({ throughput: undefined, memory: undefined, coldStart: undefined, command: phase() });
    expect(rows.map((r) => [r.measured.split(' (')[0], r.met])).toEqual([
      ['0.75×', true],
      ['0.74× vs 0.75×', true],
      ['0.0000', true],
    ]);
    expect(rows[0]!.measured).toContain('load average 1.00 2.00 3.00 → 1.50 2.00 3.00');
    const missed = targetRows({ throughput: undefined, memory: undefined, coldStart: undefined, command: phase({ rates: { ...phase().rates, redis: [600, 600, 600] } }) });
    expect(missed[1]!.met).toBe(false);
  });
  it('prints one row per way of running the command, and the ceiling', () => {
    const table = commandTable(phase());
    expect(table).toContain('| bare `node:http` answering the same bytes');
    expect(table).toContain('0.75× (0.70×–0.80×)');
    expect(table).toContain('150 (1.50×)');
    expect(table).toContain('in an idle 10.0 s with no request: set 10');
  });
});
