import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStderrLogger, LOG_LEVELS, silentLogger, type LogLevel } from './logger.js';

/** A logger whose lines are captured and parsed, instead of written to stderr. */
function captured(level?: LogLevel, bindings?: Record<string, unknown>) {
  const lines: string[] = [];
  const logger = createStderrLogger(level, bindings, (line) => lines.push(line));
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, records };
}

const emitting = ['trace', 'debug', 'info', 'warn', 'error'] as const;

describe('LOG_LEVELS', () => {
  it('are pino\'s names in increasing severity, silent last', () => {
    expect(LOG_LEVELS).toEqual(['trace', 'debug', 'info', 'warn', 'error', 'silent']);
  });
});

describe('createStderrLogger', () => {
  it('writes one JSON object per line, with level, time and msg', () => {
    const { logger, lines, records } = captured('info');
    logger.info('hello');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    expect(lines[0]!.slice(0, -1)).not.toContain('\n');
    const [record] = records();
    expect(record).toMatchObject({ level: 'info', msg: 'hello' });
    expect(typeof record!.time).toBe('number');
  });

  it('takes pino\'s (object, message) form, merging the object\'s fields', () => {
    const { logger, records } = captured('info');
    logger.warn({ extension: 'spaces', code: 'REACTOR_START_FAILED' }, 'onStart threw');
    expect(records()[0]).toMatchObject({ level: 'warn', extension: 'spaces', code: 'REACTOR_START_FAILED', msg: 'onStart threw' });
  });

  it('takes an object alone (no msg field then)', () => {
    const { logger, records } = captured('info');
    logger.error({ tool: 'list_spaces' });
    expect(records()[0]).toMatchObject({ level: 'error', tool: 'list_spaces' });
    expect(records()[0]).not.toHaveProperty('msg');
  });

  it('logs at warn and above by default', () => {
    const { logger, records } = captured();
    for (const level of emitting) logger[level](level);
    expect(records().map((r) => r.level)).toEqual(['warn', 'error']);
  });

  it.each([
    ['trace', ['trace', 'debug', 'info', 'warn', 'error']],
    ['debug', ['debug', 'info', 'warn', 'error']],
    ['info', ['info', 'warn', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
    ['silent', []],
  ] as const)('at level %s writes %j', (level, written) => {
    const { logger, records } = captured(level);
    for (const name of emitting) logger[name](name);
    expect(records().map((r) => r.level)).toEqual(written);
  });

  it('serialises an Error field as its type, message and code — never its stack', () => {
    const { logger, lines, records } = captured('info');
    const error = Object.assign(new TypeError('bad input'), { code: 'E_BAD' });
    logger.error({ err: error }, 'failed');
    expect(records()[0]!.err).toEqual({ type: 'TypeError', message: 'bad input', code: 'E_BAD' });
    expect(lines[0]).not.toContain('at ');
  });

  it('serialises an Error without a code as its type and message', () => {
    const { logger, records } = captured('info');
    logger.error({ err: new Error('boom') });
    expect(records()[0]!.err).toEqual({ type: 'Error', message: 'boom' });
  });

  it('adds its bindings to every line', () => {
    const { logger, records } = captured('info', { name: 'reactor-mcp-server' });
    logger.info('a');
    logger.warn({ x: 1 }, 'b');
    expect(records().every((r) => r.name === 'reactor-mcp-server')).toBe(true);
  });

  describe('child', () => {
    it('adds its bindings to the parent\'s, on every line', () => {
      const { logger, records } = captured('info', { name: 'host' });
      const child = logger.child({ extension: 'spaces' });
      child.info('started');
      expect(records()[0]).toMatchObject({ name: 'host', extension: 'spaces', msg: 'started' });
    });

    it('nests: a grandchild carries every binding, the nearest winning', () => {
      const { logger, records } = captured('info', { name: 'host', extension: 'none' });
      logger.child({ extension: 'spaces' }).child({ tool: 'list_spaces' }).warn('slow');
      expect(records()[0]).toMatchObject({ name: 'host', extension: 'spaces', tool: 'list_spaces' });
    });

    it('keeps the parent\'s threshold and writer', () => {
      const { logger, records } = captured('warn');
      const child = logger.child({ extension: 'spaces' });
      child.info('dropped');
      child.error('kept');
      expect(records().map((r) => r.msg)).toEqual(['kept']);
    });

    it('leaves the parent\'s bindings unchanged', () => {
      const { logger, records } = captured('info');
      logger.child({ extension: 'spaces' });
      logger.info('parent');
      expect(records()[0]).not.toHaveProperty('extension');
    });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('isLevelEnabled', () => {
  it('says which levels a line would be written at, as pino does (silent writes none), for the logger and its children', () => {
    for (const [at, index] of LOG_LEVELS.map((level, i) => [level, i] as const)) {
      const { logger, lines } = captured(at);
      for (const level of emitting) {
        const enabled = LOG_LEVELS.indexOf(level) >= index;
        expect(logger.isLevelEnabled?.(level), `${level} at ${at}`).toBe(enabled);
        expect(logger.child({ extension: 'spaces' }).isLevelEnabled?.(level)).toBe(enabled);
        // What it says is what happens.
        const before = lines.length;
        logger[level]('x');
        expect(lines.length - before).toBe(enabled ? 1 : 0);
      }
      expect(logger.isLevelEnabled?.('silent')).toBe(false);
    }
  });

  it('is false for every level on silentLogger', () => {
    for (const level of LOG_LEVELS) expect(silentLogger.isLevelEnabled?.(level)).toBe(false);
  });
});

describe('the default writer', () => {
  it('writes to stderr and never to stdout (over stdio, stdout is the protocol)', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    createStderrLogger('info').info({ extension: 'spaces' }, 'to stderr');
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(stderr.mock.calls[0]![0]))).toMatchObject({ level: 'info', extension: 'spaces', msg: 'to stderr' });
  });
});

describe('silentLogger', () => {
  it('accepts every call and writes nothing, and its children are silent too', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    for (const level of emitting) {
      expect(() => silentLogger[level]('x')).not.toThrow();
      expect(() => silentLogger[level]({ a: 1 }, 'x')).not.toThrow();
    }
    expect(silentLogger.child({ extension: 'spaces' })).toBe(silentLogger);
    expect(stderr).not.toHaveBeenCalled();
    expect(stdout).not.toHaveBeenCalled();
  });
});
