// Prints the closing line CI reads: "tests: N passed, M failed", from vitest's
// JSON report, whatever step the run stopped at. .ci/run calls it from its EXIT
// trap: `node .ci/summary.mjs [--status CODE] [--step NAME] [report.json]`.
//
// A failure is counted when a test failed, when a test file failed without a
// test result (it could not load), when vitest itself says `success: false`
// (an unhandled error outside any test), and when the run failed at a step
// that is not the tests (lint, typecheck, conformance…): then the line says
// which step. Exit code: 0 only when nothing failed and some test passed.
import { existsSync, readFileSync } from 'node:fs';

function parseArgs(argv) {
  const args = { status: 0, step: undefined, file: '.vitest-report.json' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--status') args.status = Number(argv[++i] ?? 0) || 0;
    else if (argv[i] === '--step') args.step = argv[++i];
    else args.file = argv[i];
  }
  return args;
}

const { status, step, file } = parseArgs(process.argv.slice(2));
const stopped = status !== 0 ? ` (the run failed at step "${step ?? 'unknown'}", exit ${status})` : '';

if (!existsSync(file)) {
  process.stdout.write(`tests: 0 passed, 1 failed; no test report at ${file}${stopped || ' (the tests did not run)'}\n`);
  process.exit(1);
}
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  process.stdout.write(`tests: 0 passed, 1 failed; the test report ${file} is unreadable (${error.message})${stopped}\n`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const testFailures = report.numFailedTests ?? 0;
const suiteFailures = (report.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
let failed = testFailures + suiteFailures;
const notes = [];
if (report.success === false && failed === 0) {
  failed += 1;
  notes.push('vitest reported an error outside any test (success: false)');
}
if (status !== 0 && failed === 0) {
  failed += 1;
}
if (stopped) notes.push(stopped.trim().replace(/^\(|\)$/g, ''));
process.stdout.write(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${notes.length ? `; ${notes.join('; ')}` : ''}\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
