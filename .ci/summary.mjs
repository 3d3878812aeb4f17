// Prints the closing line CI reads: "tests: N passed, M failed", from vitest's
// JSON reports, whatever step the run stopped at. .ci/run calls it from its EXIT
// trap: `node .ci/summary.mjs [--status CODE] [--step NAME] [--line NAME FILE]… [report.json]`.
//
// CI runs the suite on several Node lines, one JSON report each: `--line "Node
// 24.21.0" .vitest-report-node24.json` names a report; the line's totals are
// added up, and every failure is told with the Node line it happened on
// ("…; on Node 24.21.0: 2 failed (packages/host/test/x.test.ts)"). A bare
// report path is a report with no name (one line).
//
// A failure is counted when a test failed, when a test file failed without a
// test result (it could not load), when vitest itself says `success: false`
// (an unhandled error outside any test), when a named report is missing, and
// when the run failed at a step that is not the tests (lint, typecheck,
// conformance…): then the line says which step. Exit code: 0 only when nothing
// failed and some test passed.
//
// Before that closing line (which stays last), each failed test is told: its
// Node line, file and full name, and the first lines of its failure message
// (ANSI colours stripped) with the test-file frame that threw; at most
// MAX_TOLD tests over all lines, then how many more failed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const MAX_TOLD = 10;
const MESSAGE_LINES = 6;
// eslint-disable-next-line no-control-regex -- ANSI escapes are control characters
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

function parseArgs(argv) {
  const args = { status: 0, step: undefined, reports: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--status') args.status = Number(argv[++i] ?? 0) || 0;
    else if (argv[i] === '--step') args.step = argv[++i];
    else if (argv[i] === '--line') {
      const name = argv[++i];
      args.reports.push({ name, file: argv[++i] });
    } else args.reports.push({ name: undefined, file: argv[i] });
  }
  if (args.reports.length === 0) args.reports.push({ name: undefined, file: '.vitest-report.json' });
  return args;
}

/** One report's counts and what to say about its failures. */
function readLine({ name, file }) {
  const on = name === undefined ? '' : `on ${name}: `;
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, notes: [`${on}no test report at ${file}`], missing: true };
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { passed: 0, failed: 1, skipped: 0, notes: [`${on}the test report ${file} is unreadable (${error.message})`], missing: true };
  }
  const passed = report.numPassedTests ?? 0;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const testFailures = report.numFailedTests ?? 0;
  const results = report.testResults ?? [];
  const suiteFailures = results.filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
  let failed = testFailures + suiteFailures;
  const notes = [];
  if (report.success === false && failed === 0) {
    failed += 1;
    notes.push(`${on}vitest reported an error outside any test (success: false)`);
  } else if (failed > 0 && name !== undefined) {
    const files = [...new Set(results.filter((r) => r.status === 'failed').map((r) => path.relative(process.cwd(), r.name ?? '?')))];
    const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? `, and ${files.length - 3} more` : '');
    notes.push(`${on}${failed} failed${shown ? ` (${shown})` : ''}`);
  }
  return { passed, failed, skipped, notes, missing: false, told: failedTests(results, on) };
}

/**
 * A timeout's error reaches vitest's JSON report as the stack vitest captured
 * when the test (or hook) was declared, whose first line is this placeholder:
 * the report keeps no "timed out" message.
 */
const TIMEOUT_PLACEHOLDER = 'Error: STACK_TRACE_ERROR';

/** The first lines of a failure message, and the first frame in a test file (where it threw). */
function excerpt(message) {
  const lines = String(message ?? '').replace(ANSI, '').split('\n');
  if (lines[0] === TIMEOUT_PLACEHOLDER) lines[0] = 'a test or hook timed out (vitest\'s JSON report keeps no message for a timeout: its stack only, which reads STACK_TRACE_ERROR)';
  const frame = (line) => /^\s*at\s/.test(line);
  const text = lines.filter((line) => line.trim() !== '' && !frame(line));
  const shown = text.slice(0, MESSAGE_LINES);
  if (text.length > MESSAGE_LINES) shown.push(`… (${text.length - MESSAGE_LINES} more lines)`);
  const thrower = lines.find((line) => frame(line) && /\.(test|spec)\.[cm]?[jt]sx?:\d+/.test(line) && !line.includes('node_modules'));
  if (thrower) shown.push(thrower.trim());
  return shown;
}

/** Each failed test of a report (and each file that failed without a failed test), as lines to print. */
function failedTests(results, on) {
  const told = [];
  for (const result of results) {
    if (result.status !== 'failed') continue;
    const file = path.relative(process.cwd(), result.name ?? '?');
    const tests = (result.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of tests) {
      const name = [...(t.ancestorTitles ?? []), t.title].filter(Boolean).join(' > ') || t.fullName || '?';
      const messages = t.failureMessages ?? [];
      const after = typeof t.duration === 'number' ? ` (after ${Math.round(t.duration)} ms)` : '';
      told.push([`FAILED ${on}${file} > ${name}${after}`, ...(messages.length ? messages.flatMap(excerpt) : ['(no failure message)']).map((line) => `    ${line}`)]);
    }
    if (tests.length === 0) {
      told.push([`FAILED ${on}${file} (the file failed outside its tests)`, ...excerpt(result.message || '(no failure message)').map((line) => `    ${line}`)]);
    }
  }
  return told;
}

const { status, step, reports } = parseArgs(process.argv.slice(2));
const stopped = status !== 0 ? ` (the run failed at step "${step ?? 'unknown'}", exit ${status})` : '';
const lines = reports.map(readLine);

if (lines.length === 1 && lines[0].missing) {
  // One report and none to read: the tests did not run, or their report is unreadable.
  const [line] = lines;
  const why = existsSync(reports[0].file) ? '' : stopped ? '' : ' (the tests did not run)';
  process.stdout.write(`tests: 0 passed, 1 failed; ${line.notes[0]}${why}${stopped}\n`);
  process.exit(1);
}

const passed = lines.reduce((sum, line) => sum + line.passed, 0);
const skipped = lines.reduce((sum, line) => sum + line.skipped, 0);
let failed = lines.reduce((sum, line) => sum + line.failed, 0);
const notes = lines.flatMap((line) => line.notes);
if (status !== 0 && failed === 0) {
  failed += 1;
}
if (stopped) notes.push(stopped.trim().replace(/^\(|\)$/g, ''));
const told = lines.flatMap((line) => line.told ?? []);
if (told.length > 0) {
  const shown = told.slice(0, MAX_TOLD).flat();
  if (told.length > MAX_TOLD) shown.push(`… and ${told.length - MAX_TOLD} more failed tests (see the reports ${reports.map((r) => r.file).join(', ')})`);
  process.stdout.write(`${shown.join('\n')}\n\n`);
}
process.stdout.write(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${notes.length ? `; ${notes.join('; ')}` : ''}\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
