import { describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../kernel/logger.js';
import { UnknownNameLog } from './unknownNames.js';

function recordingLogger(): { logger: Logger; warnings: Array<Record<string, unknown>> } {
  const warnings: Array<Record<string, unknown>> = [];
  const logger: Logger = {
    ...silentLogger,
    warn: (obj: object | string) => void warnings.push(typeof obj === 'string' ? { msg: obj } : (obj as Record<string, unknown>)),
    child: () => logger,
  };
  return { logger, warnings };
}

describe('UnknownNameLog', () => {
  it('logs a name once per window, not once per request', () => {
    let now = 0;
    const { logger, warnings } = recordingLogger();
    const log = new UnknownNameLog(logger, { windowMs: 60_000, now: () => now });
    expect(log.report(['nosuch'], { where: 'mcp' })).toEqual(['nosuch']);
    for (let i = 0; i < 100; i++) log.report(['nosuch'], { where: 'mcp' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ unknownToolsets: ['nosuch'], where: 'mcp' });
    now = 60_000;
    expect(log.report(['nosuch'], { where: 'mcp' })).toEqual(['nosuch']);
    expect(warnings).toHaveLength(2);
  });

  it('logs new names in one line and skips the ones already logged', () => {
    const { logger, warnings } = recordingLogger();
    const log = new UnknownNameLog(logger, { now: () => 0 });
    log.report(['a'], { where: 'mcp' });
    expect(log.report(['a', 'b', 'c'], { where: 'toolsets', tenant: 'acme' })).toEqual(['b', 'c']);
    expect(warnings[1]).toMatchObject({ unknownToolsets: ['b', 'c'], tenant: 'acme' });
  });

  it('remembers a bounded number of names, counting the ones it could not log', () => {
    let now = 0;
    const { logger, warnings } = recordingLogger();
    const log = new UnknownNameLog(logger, { maxNames: 2, windowMs: 1000, now: () => now });
    log.report(['a', 'b'], { where: 'mcp' });
    expect(log.report(['c', 'd'], { where: 'mcp' })).toEqual([]);
    now = 1000; // a and b expire: room again
    expect(log.report(['c'], { where: 'mcp' })).toEqual(['c']);
    expect(warnings.at(-1)).toMatchObject({ unknownToolsets: ['c'], suppressed: 2 });
  });
});
