/**
 * The closing line of `.ci/run` ("tests: N passed, M failed"), which CI reads:
 * `.ci/summary.mjs` counts vitest's `success: false` as a failure, and the
 * EXIT trap in `.ci/run` prints the line whatever step failed. The trap is
 * taken from `.ci/run` itself and run in a scratch directory.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workdir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'reactor-ci-'));
  scratch.push(dir);
  symlinkSync(path.join(repo, '.ci'), path.join(dir, '.ci'));
  return dir;
}

function run(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd }, (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }));
  });
}

const report = (fields: Record<string, unknown>) => JSON.stringify({ numPassedTests: 10, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, success: true, testResults: [], ...fields });

describe('.ci/summary.mjs', () => {
  it('counts vitest\'s success: false (an unhandled error) as a failure', async () => {
    const dir = workdir();
    writeFileSync(path.join(dir, 'r.json'), report({ success: false }));
    const { code, stdout } = await run('node', ['.ci/summary.mjs', 'r.json'], dir);
    expect(stdout).toBe('tests: 10 passed, 1 failed; vitest reported an error outside any test (success: false)\n');
    expect(code).toBe(1);
  });

  it('passes a clean report', async () => {
    const dir = workdir();
    writeFileSync(path.join(dir, 'r.json'), report({}));
    expect(await run('node', ['.ci/summary.mjs', 'r.json'], dir)).toEqual({ code: 0, stdout: 'tests: 10 passed, 0 failed\n' });
  });

  it('adds up the Node lines\' reports, and names the Node line and files of each failure', async () => {
    const dir = workdir();
    writeFileSync(path.join(dir, 'node20.json'), report({}));
    const failing = { status: 'failed', name: path.join(dir, 'packages/host/test/a.test.ts'), assertionResults: [{ status: 'failed' }] };
    writeFileSync(path.join(dir, 'node24.json'), report({ numPassedTests: 9, numFailedTests: 1, success: false, testResults: [failing] }));
    const args = ['.ci/summary.mjs', '--line', 'Node 20.20.2', 'node20.json', '--line', 'Node 24.21.0', 'node24.json', '--line', 'Node 26.10.0', 'node26.json'];
    const { code, stdout } = await run('node', args, dir);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('tests: 19 passed, 2 failed; on Node 24.21.0: 1 failed (packages/host/test/a.test.ts); on Node 26.10.0: no test report at node26.json');
    expect(code).toBe(1);
  });

  it('tells each failed test before the closing line: its Node line, file, full name and first lines of its message, without colours', async () => {
    const dir = workdir();
    const message = [
      '\u001b[31mAssertionError: expected [ 200, 200 ] to deeply equal [ 200 ]\u001b[39m',
      '',
      '\u001b[32m- Expected\u001b[39m',
      '\u001b[31m+ Received\u001b[39m',
      '  [',
      '    200,',
      '+   200,',
      '  ]',
      `    at ${path.join(dir, 'node_modules/.pnpm/@vitest+expect/index.js')}:1:1`,
      `    at ${path.join(dir, 'packages/redis/test/failover.test.ts')}:120:41`,
    ].join('\n');
    const failing = {
      status: 'failed',
      name: path.join(dir, 'packages/redis/test/failover.test.ts'),
      assertionResults: [
        { status: 'passed', title: 'fine', ancestorTitles: ['failover'], failureMessages: [] },
        { status: 'failed', title: 'the v1 GET stream reopens once', ancestorTitles: ['failover', 'a replica dies'], failureMessages: [message] },
      ],
    };
    const broken = { status: 'failed', name: path.join(dir, 'packages/host/test/b.test.ts'), message: 'Cannot find module \u001b[1m./gone.js\u001b[22m', assertionResults: [] };
    writeFileSync(path.join(dir, 'node20.json'), report({}));
    writeFileSync(path.join(dir, 'node26.json'), report({ numPassedTests: 9, numFailedTests: 1, success: false, testResults: [failing, broken] }));
    const args = ['.ci/summary.mjs', '--line', 'Node 20.20.2', 'node20.json', '--line', 'Node 26.10.0', 'node26.json'];
    const { code, stdout } = await run('node', args, dir);
    expect(stdout).toBe(
      [
        'FAILED on Node 26.10.0: packages/redis/test/failover.test.ts > failover > a replica dies > the v1 GET stream reopens once',
        '    AssertionError: expected [ 200, 200 ] to deeply equal [ 200 ]',
        '    - Expected',
        '    + Received',
        '      [',
        '        200,',
        '    +   200,',
        '    … (1 more lines)',
        `    at ${path.join(dir, 'packages/redis/test/failover.test.ts')}:120:41`,
        'FAILED on Node 26.10.0: packages/host/test/b.test.ts (the file failed outside its tests)',
        '    Cannot find module ./gone.js',
        '',
        'tests: 19 passed, 2 failed; on Node 26.10.0: 2 failed (packages/redis/test/failover.test.ts, packages/host/test/b.test.ts)',
        '',
      ].join('\n'),
    );
    expect(code).toBe(1);
  });

  it('says a timeout is one, with how long the test ran (the JSON report keeps no message for it)', async () => {
    const dir = workdir();
    const stack = `Error: STACK_TRACE_ERROR\n    at task (${path.join(dir, 'node_modules/@vitest/runner/dist/chunk-artifact.js')}:1784:27)\n    at ${path.join(dir, 'packages/redis/test/failover.test.ts')}:56:3`;
    const tests = [{ status: 'failed', title: 'relays', ancestorTitles: ['failover'], duration: 30012.4, failureMessages: [stack] }];
    writeFileSync(path.join(dir, 'r.json'), report({ numPassedTests: 3, numFailedTests: 1, success: false, testResults: [{ status: 'failed', name: path.join(dir, 'packages/redis/test/failover.test.ts'), assertionResults: tests }] }));
    const { stdout } = await run('node', ['.ci/summary.mjs', '--line', 'Node 26.10.0', 'r.json'], dir);
    expect(stdout.split('\n').slice(0, 3)).toEqual([
      'FAILED on Node 26.10.0: packages/redis/test/failover.test.ts > failover > relays (after 30012 ms)',
      '    a test or hook timed out (vitest\'s JSON report keeps no message for a timeout: its stack only, which reads STACK_TRACE_ERROR)',
      `    at ${path.join(dir, 'packages/redis/test/failover.test.ts')}:56:3`,
    ]);
  });

  it('tells at most 10 failed tests, then how many more failed', async () => {
    const dir = workdir();
    const tests = Array.from({ length: 12 }, (_, i) => ({ status: 'failed', title: `t${i}`, ancestorTitles: [], failureMessages: [`Error: boom ${i}`] }));
    writeFileSync(path.join(dir, 'r.json'), report({ numFailedTests: 12, success: false, testResults: [{ status: 'failed', name: path.join(dir, 'x.test.ts'), assertionResults: tests }] }));
    const { code, stdout } = await run('node', ['.ci/summary.mjs', 'r.json'], dir);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('FAILED '))).toEqual(Array.from({ length: 10 }, (_, i) => `FAILED x.test.ts > t${i}`));
    expect(lines).toContain('… and 2 more failed tests (see the reports r.json)');
    expect(lines.at(-1)).toBe('tests: 10 passed, 12 failed');
    expect(code).toBe(1);
  });

  it('passes when every Node line\'s report is clean', async () => {
    const dir = workdir();
    writeFileSync(path.join(dir, 'node20.json'), report({}));
    writeFileSync(path.join(dir, 'node26.json'), report({ numPassedTests: 7 }));
    const args = ['.ci/summary.mjs', '--line', 'Node 20.20.2', 'node20.json', '--line', 'Node 26.10.0', 'node26.json'];
    expect(await run('node', args, dir)).toEqual({ code: 0, stdout: 'tests: 17 passed, 0 failed\n' });
  });

  it('names the step a run failed at when the tests did not run', async () => {
    const { code, stdout } = await run('node', ['.ci/summary.mjs', '--status', '2', '--step', 'lint', 'none.json'], workdir());
    expect(stdout).toBe('tests: 0 passed, 1 failed; no test report at none.json (the run failed at step "lint", exit 2)\n');
    expect(code).toBe(1);
  });
});

describe('the EXIT trap of .ci/run', () => {
  const source = readFileSync(path.join(repo, '.ci/run'), 'utf8');
  const trap = source.slice(source.indexOf('current_step="setup"'), source.indexOf('# END closing-summary'));

  it('prints the closing line when an early step fails, and keeps the failing exit code', async () => {
    const dir = workdir();
    writeFileSync(path.join(dir, 'fake-run'), `#!/usr/bin/env bash\nset -euo pipefail\n${trap}\nstep "lint"\nexit 3\n`, { mode: 0o755 });
    const { code, stdout } = await run('bash', ['fake-run'], dir);
    expect(code).toBe(3);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('tests: 0 passed, 1 failed; no test report at .vitest-report.json (the run failed at step "lint", exit 3)');
  });

  it('after the tests ran, prints their totals, and fails a run whose report says success: false', async () => {
    const dir = workdir();
    const body = `step "test (pnpm test)"\necho '${report({ success: false })}' > .vitest-report.json\nexit 0\n`;
    writeFileSync(path.join(dir, 'fake-run'), `#!/usr/bin/env bash\nset -euo pipefail\n${trap}\n${body}`, { mode: 0o755 });
    const { code, stdout } = await run('bash', ['fake-run'], dir);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('tests: 10 passed, 1 failed; vitest reported an error outside any test (success: false)');
    expect(code).toBe(1);
  });
});
