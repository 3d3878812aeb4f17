// Prints vitest's totals as the plain line CI reads: "N passed, M failed".
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  process.stderr.write(`no vitest JSON report at ${file}: ${error.message}\n`);
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const suiteFailures = (report.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
process.stdout.write(`tests: ${passed} passed, ${failed + suiteFailures} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed + suiteFailures > 0 || passed === 0 ? 1 : 0);
