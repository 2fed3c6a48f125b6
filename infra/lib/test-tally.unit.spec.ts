import { fuzzChecks, summary, tallyRunner } from './test-tally.cjs';

const root = '/repo';
type Status = 'passed' | 'failed' | 'pending' | 'skipped' | 'todo';

/** A test file's entry as Jest 30's --json writes it (Vitest's json reporter: the same fields). */
function file(name: string, status: 'passed' | 'failed', tests: [Status, string][], message = '') {
  return {
    assertionResults: tests.map(([testStatus, fullName]) => ({
      ancestorTitles: [],
      duration: 3,
      failureMessages: testStatus === 'failed' ? ['Error: expect(received).toBe(expected)'] : [],
      fullName,
      status: testStatus,
      title: fullName,
    })),
    endTime: 1795730352900,
    message,
    name: `${root}/${name}`,
    startTime: 1795730352033,
    status,
    summary: '',
  };
}

/** A whole report, with the totals Jest computes beside its files. */
function report(testResults: ReturnType<typeof file>[]) {
  const tests = testResults.flatMap((f) => f.assertionResults);
  const count = (status: Status) => tests.filter((t) => t.status === status).length;
  const failedFiles = testResults.filter((f) => f.status === 'failed').length;
  return {
    numFailedTestSuites: failedFiles,
    numFailedTests: count('failed'),
    numPassedTestSuites: testResults.length - failedFiles,
    numPassedTests: count('passed'),
    numPendingTestSuites: 0,
    numPendingTests: count('pending'),
    numRuntimeErrorTestSuites: testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length,
    numTodoTests: count('todo'),
    numTotalTestSuites: testResults.length,
    numTotalTests: tests.length,
    startTime: 1795730352033,
    success: failedFiles === 0,
    testResults,
    wasInterrupted: false,
  };
}

// The messages Jest 30 wrote for these cases (node_modules/.bin/jest --json on a throwaway spec).
const AFTER_ALL_ERROR =
  "\n\n  ● Test suite failed to run\n\n    afterAll broke\n\n    > 1 | afterAll(() => { throw new Error('afterAll broke'); });\n";
const LOAD_ERROR = "  ● Test suite failed to run\n\n    Cannot find module './does-not-exist' from 'load.spec.js'\n";

describe("a runner's report", () => {
  it('counts a passing report: its tests passed, nothing failed', () => {
    const passing = report([
      file('a.unit.spec.ts', 'passed', [
        ['passed', 'adds'],
        ['passed', 'subtracts'],
      ]),
    ]);

    expect(tallyRunner('jest', passing, 0, root)).toEqual({ passed: 2, skipped: 0, failures: [] });
  });

  it('names a failed test by file and name, beside the passed and skipped ones', () => {
    const failing = report([
      file('a.unit.spec.ts', 'failed', [
        ['failed', 'adds'],
        ['passed', 'subtracts'],
        ['pending', 'divides'],
      ]),
    ]);

    expect(tallyRunner('jest', failing, 1, root)).toEqual({ passed: 1, skipped: 1, failures: ['jest: a.unit.spec.ts › adds'] });
  });

  it('fails a file whose afterAll threw after all its tests passed, naming the error', () => {
    const afterAll = report([file('b.int.spec.ts', 'failed', [['passed', 'passes']], AFTER_ALL_ERROR)]);

    expect(tallyRunner('jest', afterAll, 1, root)).toEqual({ passed: 1, skipped: 0, failures: ['jest: b.int.spec.ts: afterAll broke'] });
  });

  it('fails a file that did not load, once, beside the files that passed', () => {
    const load = report([file('c.int.spec.ts', 'failed', [], LOAD_ERROR), file('a.unit.spec.ts', 'passed', [['passed', 'adds']])]);

    expect(tallyRunner('jest', load, 1, root)).toEqual({
      passed: 1,
      skipped: 0,
      failures: ["jest: c.int.spec.ts: Cannot find module './does-not-exist' from 'load.spec.js'"],
    });
  });

  it('fails a runner that ran no tests, once even though it also exited 1', () => {
    expect(tallyRunner('vitest', report([]), 1, root).failures).toEqual(['vitest: ran no tests']);
    expect(tallyRunner('jest', report([file('a.unit.spec.ts', 'passed', [['skipped', 'later']])]), 0, root).failures).toEqual([
      'jest: ran no tests',
    ]);
  });

  it('fails a runner that exited non-zero with a clean report (an unhandled error)', () => {
    const clean = report([file('a.unit.spec.ts', 'passed', [['passed', 'adds']])]);

    expect(tallyRunner('vitest', clean, 1, root)).toEqual({
      passed: 1,
      skipped: 0,
      failures: ['vitest: exited 1 with nothing failed in its report (see its output above)'],
    });
  });

  it('fails a runner that wrote no report, or was killed', () => {
    expect(tallyRunner('jest', null, 'SIGKILL', root).failures).toEqual(['jest: wrote no report (exited SIGKILL)']);
  });
});

describe('the fuzz checks', () => {
  const run = { run: 'customer', operations: 92, cases: 4100, failures: 0, serverErrors: 0, exitCode: 0 };

  it('passes a run that exercised operations, found nothing and exited 0', () => {
    expect(fuzzChecks([run], 0)).toEqual([{ name: 'fuzz customer', failure: null }]);
  });

  it('fails a run with failures, one schemathesis failed, or one that tested no operation', () => {
    expect(fuzzChecks([{ ...run, failures: 3, serverErrors: 1, exitCode: 1 }], 1)).toEqual([
      { name: 'fuzz customer', failure: '3 failures (1 5xx)' },
    ]);
    expect(fuzzChecks([{ ...run, exitCode: 2 }], 1)).toEqual([{ name: 'fuzz customer', failure: 'schemathesis exited 2' }]);
    expect(fuzzChecks([{ ...run, operations: 0, cases: 0 }], 1)).toEqual([{ name: 'fuzz customer', failure: 'tested 0 operations' }]);
  });

  it('fails once more when fuzz.mjs exited non-zero with no run to blame (it broke before a run)', () => {
    expect(fuzzChecks([], 1)).toEqual([{ name: 'fuzz', failure: 'exited 1 before it could report (see its output above)' }]);
  });
});

describe('the closing lines', () => {
  const checks = ['typecheck', 'lint', 'build'].map((name) => ({ name, failure: null }));

  it('ends with the tests alone, the checks on the line before', () => {
    const jest = { passed: 940, skipped: 0, failures: [] };
    const vitest = { passed: 63, skipped: 2, failures: [] };

    expect(summary([jest, vitest], checks)).toEqual({
      failed: 0,
      lines: ['checks: 3 passed, 0 failed (typecheck, lint, build)', '1003 passed, 0 failed, 2 skipped'],
    });
  });

  it('counts failed checks and suites as failed, and names each above', () => {
    const jest = { passed: 940, skipped: 0, failures: ['jest: b.int.spec.ts: afterAll broke'] };
    const lint = { name: 'lint', failure: 'exited 1' };

    expect(summary([jest], [checks[0], lint])).toEqual({
      failed: 2,
      lines: [
        'failed:',
        '  ✗ jest: b.int.spec.ts: afterAll broke',
        '  ✗ lint: exited 1',
        'checks: 1 passed, 1 failed (typecheck, lint)',
        '940 passed, 2 failed',
      ],
    });
  });

  it('lists the first 20 failures and says how many more', () => {
    const many = { passed: 0, skipped: 0, failures: Array.from({ length: 25 }, (_, i) => `jest: t${i}.unit.spec.ts › fails`) };

    const { failed, lines } = summary([many], []);

    expect(failed).toBe(25);
    expect(lines.slice(-2)).toEqual(['  … and 5 more (see above)', '0 passed, 25 failed']);
  });
});
