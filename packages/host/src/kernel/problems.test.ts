import { describe, expect, it } from 'vitest';
import { ErrorCodes, ReactorError } from './errors.js';
import { ProblemLog, type Problem } from './problems.js';
import { captureLogger } from '../testing/captureLogger.js';

const problem = (message: string, extra: Partial<Omit<Problem, 'at'>> = {}): Omit<Problem, 'at'> => ({
  code: ErrorCodes.START_FAILED,
  extension: 'spaces',
  message,
  phase: 'startup',
  ...extra,
});

describe('ProblemLog', () => {
  it('keeps what it is given, stamped with an ISO time, oldest first', () => {
    const log = new ProblemLog();
    const first = log.add(problem('one'));
    log.add(problem('two', { extension: 'geo', subject: 'list_places', phase: 'build' }));
    expect(first.at).toBe(new Date(first.at).toISOString());
    expect(log.list().map((p) => p.message)).toEqual(['one', 'two']);
    expect(log.list()[1]).toMatchObject({ code: 'REACTOR_START_FAILED', extension: 'geo', subject: 'list_places', phase: 'build' });
  });

  it('is bounded: past its limit the oldest problems go first', () => {
    const log = new ProblemLog(3);
    for (let i = 1; i <= 10; i++) log.add(problem(`p${i}`));
    expect(log.list().map((p) => p.message)).toEqual(['p8', 'p9', 'p10']);
  });

  it('keeps 200 problems by default', () => {
    const log = new ProblemLog();
    for (let i = 0; i < 250; i++) log.add(problem(`p${i}`));
    expect(log.list()).toHaveLength(200);
    expect(log.list()[0]!.message).toBe('p50');
  });

  it('replaces a repeat of the same problem (code, extension, subject, message) and moves it to the end', () => {
    const log = new ProblemLog();
    log.add(problem('flaky', { phase: 'call' }));
    log.add(problem('other'));
    const again = log.add(problem('flaky', { phase: 'call' }));
    expect(log.list().map((p) => p.message)).toEqual(['other', 'flaky']);
    expect(log.list()[1]).toBe(again);
  });

  it('a repeating fault cannot grow it, however often it repeats', () => {
    const log = new ProblemLog(5);
    for (let i = 0; i < 1000; i++) log.add(problem('same fault'));
    expect(log.list()).toHaveLength(1);
  });

  it('keeps problems apart that differ in code, extension, subject or message', () => {
    const log = new ProblemLog();
    log.add(problem('m'));
    log.add(problem('m', { code: ErrorCodes.STOP_FAILED }));
    log.add(problem('m', { extension: 'geo' }));
    log.add(problem('m', { subject: 'tool_a' }));
    log.add(problem('n'));
    expect(log.list()).toHaveLength(5);
  });

  it('filters its list', () => {
    const log = new ProblemLog();
    log.add(problem('a', { phase: 'startup' }));
    log.add(problem('b', { phase: 'call' }));
    expect(log.list((p) => p.phase === 'call').map((p) => p.message)).toEqual(['b']);
  });

  describe('addError', () => {
    it('takes a ReactorError\'s code and message', () => {
      const log = new ProblemLog();
      const error = new ReactorError(ErrorCodes.TOOL_EXTENSION_FAILED, { subject: 'tool "t" extended by extension "guard"', problem: 'failed' });
      const added = log.addError(error, ErrorCodes.CONTRIBUTION_FAILED, 'build', 'guard', 't');
      expect(added).toMatchObject({ code: 'REACTOR_TOOL_EXTENSION_FAILED', message: error.message, phase: 'build', extension: 'guard', subject: 't' });
    });

    it('uses the fallback code for any other error, and its message without a stack', () => {
      const log = new ProblemLog();
      const added = log.addError(new Error('tools() threw'), ErrorCodes.CONTRIBUTION_FAILED, 'activation', 'spaces');
      expect(added).toMatchObject({ code: 'REACTOR_CONTRIBUTION_FAILED', message: 'tools() threw', extension: 'spaces' });
      expect(added).not.toHaveProperty('subject');
    });

    it('describes a thrown non-error without dumping it', () => {
      const added = new ProblemLog().addError({ token: 'secret' }, ErrorCodes.START_FAILED, 'startup');
      expect(added.message).toBe('an object');
      expect(added).not.toHaveProperty('extension');
    });
  });

});

describe('ProblemLog.report: the one place a failure is recorded and logged', () => {
  it('keeps the problem and logs it once, with code, extension, phase and the caller\'s fields', () => {
    const log = new ProblemLog();
    const logger = captureLogger();
    log.report(logger, { code: ErrorCodes.TOOL_TIMEOUT, extension: 'slow', subject: 'hang', message: 'timed out', phase: 'call' }, { level: 'warn', fields: { tool: 'hang', timeoutMs: 30 } });
    expect(log.list()).toEqual([expect.objectContaining({ code: ErrorCodes.TOOL_TIMEOUT, extension: 'slow', subject: 'hang' })]);
    expect(logger.entries).toEqual([{ level: 'warn', msg: 'timed out', fields: { code: ErrorCodes.TOOL_TIMEOUT, extension: 'slow', phase: 'call', tool: 'hang', timeoutMs: 30 } }]);
  });

  it('says a wrapped cause once: the message carries it, the log adds only the fault\'s stack frames', () => {
    const log = new ProblemLog();
    const logger = captureLogger();
    const fault = new Error('connection refused');
    const wrapped = new ReactorError(ErrorCodes.START_FAILED, { subject: 'extension "db"', problem: 'onStart failed (connection refused)', extension: 'db', cause: fault });
    log.reportError(logger, wrapped, ErrorCodes.START_FAILED, 'startup', { extension: 'db' });
    const [entry] = logger.entries;
    expect(entry?.level).toBe('error');
    expect(entry?.msg).toBe(wrapped.message);
    expect(entry?.msg?.match(/connection refused/g)).toHaveLength(1);
    expect(String(entry?.fields.stack)).toMatch(/^Error: at /);
    expect(String(entry?.fields.stack)).not.toContain('connection refused');
    expect(entry?.fields).not.toHaveProperty('err');
  });

  it('logs no stack for a ReactorError without a fault behind it', () => {
    const log = new ProblemLog();
    const logger = captureLogger();
    log.reportError(logger, new ReactorError(ErrorCodes.MANIFEST_INVALID, { subject: 'x', problem: 'is invalid' }), ErrorCodes.MANIFEST_INVALID, 'startup');
    expect(logger.entries[0]?.fields).not.toHaveProperty('stack');
  });
});

