// What `npm test` counts, decided from the runners' own reports and exit codes. Pure: test.mjs
// runs things and reads files, this says what they mean. CommonJS, so the ESM scripts and the
// Jest (CommonJS) spec beside it can both load it.
const path = require('node:path');
const { stripVTControlCharacters } = require('node:util');

/** Failures listed above the closing lines; the rest are in the runners' output. */
const LISTED = 20;

/** The first line of a suite's error that says something ("afterAll broke"), without colours. */
function firstLine(message) {
  const lines = stripVTControlCharacters(message ?? '')
    .split('\n')
    .map((line) => line.trim());
  const line = lines.find((l) => l !== '' && !l.startsWith('●')) ?? 'no message';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/**
 * One test runner's JSON report (Jest's `--json`; Vitest's json reporter writes the same shape,
 * `null` when none was written) and exit code, as `{ passed, skipped, failures }`: passed and
 * skipped count test cases, `failures` names one failure each. A failure is a failed test, or a
 * test file that failed with no failed test of its own (it did not load, a beforeAll or afterAll
 * threw), or the runner ran no test at all, or it exited non-zero with nothing failed in its
 * report (Vitest reports an unhandled error only in its exit code).
 */
function tallyRunner(runner, report, exit, root = process.cwd()) {
  if (!report) return { passed: 0, skipped: 0, failures: [`${runner}: wrote no report (exited ${exit})`] };
  let passed = 0;
  let skipped = 0;
  const failures = [];
  for (const file of report.testResults) {
    const name = path.relative(root, file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    const passedHere = file.assertionResults.filter((test) => test.status === 'passed').length;
    passed += passedHere;
    skipped += file.assertionResults.length - passedHere - failed.length; // pending, skipped, todo
    for (const test of failed) failures.push(`${runner}: ${name} › ${test.fullName}`);
    // Jest names the file's error `message` in its JSON (failureMessage inside), Vitest too.
    if (file.status === 'failed' && failed.length === 0)
      failures.push(`${runner}: ${name}: ${firstLine(file.message ?? file.failureMessage)}`);
  }
  if (passed + failures.length === 0) failures.push(`${runner}: ran no tests`);
  if (exit !== 0 && failures.length === 0)
    failures.push(`${runner}: exited ${exit} with nothing failed in its report (see its output above)`);
  return { passed, skipped, failures };
}

/** Why one schemathesis run (a row of fuzz-results.json) failed, or null when it passed. */
function fuzzRunFailure(run) {
  if (run.failures > 0) return `${run.failures} failures (${run.serverErrors} 5xx)`;
  if (run.exitCode !== 0) return `schemathesis exited ${run.exitCode}`;
  // A run that reached no operation (the document did not load, every call refused) proved nothing.
  if (run.operations === 0) return 'tested 0 operations';
  return null;
}

/**
 * The checks of one `fuzz.mjs` run (`{ name, failure }`, failure null when passed): one per
 * schemathesis run it reported, and one more when it exited non-zero with no run to blame.
 */
function fuzzChecks(runs, exit) {
  const checks = runs.map((run) => ({ name: `fuzz ${run.run}`, failure: fuzzRunFailure(run) }));
  if (exit !== 0 && checks.every((check) => check.failure === null))
    checks.push({ name: 'fuzz', failure: `exited ${exit} before it could report (see its output above)` });
  return checks;
}

/**
 * The end of `npm test`: every failure named (the first LISTED), the checks on a line of their
 * own, and last `N passed, N failed[, N skipped]`, where passed counts tests only and failed
 * counts every failure, checks included. `failed` decides the exit code.
 */
function summary(tallies, checks) {
  const failures = [
    ...tallies.flatMap((tally) => tally.failures),
    ...checks.filter((check) => check.failure !== null).map((check) => `${check.name}: ${check.failure}`),
  ];
  const sum = (key) => tallies.reduce((total, tally) => total + tally[key], 0);
  const lines = [];
  if (failures.length > 0) {
    lines.push('failed:', ...failures.slice(0, LISTED).map((failure) => `  ✗ ${failure}`));
    if (failures.length > LISTED) lines.push(`  … and ${failures.length - LISTED} more (see above)`);
  }
  if (checks.length > 0) {
    const failedChecks = checks.filter((check) => check.failure !== null).length;
    const names = checks.map((check) => check.name).join(', ');
    lines.push(`checks: ${checks.length - failedChecks} passed, ${failedChecks} failed (${names})`);
  }
  const skipped = sum('skipped') > 0 ? `, ${sum('skipped')} skipped` : '';
  lines.push(`${sum('passed')} passed, ${failures.length} failed${skipped}`);
  return { failed: failures.length, lines };
}

module.exports = { tallyRunner, fuzzRunFailure, fuzzChecks, summary };
