// `npm test`: everything, against real servers. Starts the loopback infrastructure
// (installing it once, cached), checks types and lint, runs every Jest tier, and ends with
// the line `N passed, N failed`. Servers this run started are stopped again at the end.
//
//   npm test                      all of it
//   npm test -- <jest args>       e.g. a path pattern, passed through to Jest
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { down, env, paths, up } from '../lib/index.mjs';
import { smollm2Gguf } from '../lib/model.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const jestArgs = process.argv.slice(2);
const results = { passed: 0, failed: 0, skipped: 0 };

function run(label, command, args, extraEnv = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  return result.status === 0;
}

function check(label, command, args) {
  if (run(label, command, args)) results.passed += 1;
  else {
    results.failed += 1;
    console.error(`✗ ${label} failed`);
  }
}

/** Test databases are named test_* / template_*; a killed run can leave some behind. */
async function dropLeftoverDatabases(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE 'test\\_%' OR datname LIKE 'template\\_%'");
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Adds a Jest-format JSON report (Jest and Vitest both write one) to the totals. */
function count(label, resultsFile) {
  if (!fs.existsSync(resultsFile)) {
    results.failed += 1;
    console.error(`✗ ${label} wrote no results`);
    return;
  }
  const report = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  results.passed += report.numPassedTests;
  results.failed += report.numFailedTests;
  results.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A suite that fails to load has no failed tests of its own: count it.
  results.failed += report.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
let started = [];
// Interrupted (Ctrl-C, CI timeout): stop what this run started, so the next run finds the ports free.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the servers this run started`);
    down(started).finally(() => process.exit(130));
  });
}
try {
  console.log('▶ infrastructure: PostgreSQL, Kafka, MinIO, stripe-mock, mail catcher');
  const report = await up();
  started = report.filter((r) => r.started).map((r) => r.name);
  // The model engine's tests run the real model (fetched once, cached beside the servers).
  const infraEnv = { ...env(), MESHWORK_SMOLLM2_GGUF: await smollm2Gguf() };
  // Only the test processes get these: in this process DATABASE_URL would make infra
  // treat its own PostgreSQL as someone else's and leave it running at the end.
  await dropLeftoverDatabases(infraEnv.DATABASE_URL);

  if (jestArgs.length === 0) {
    check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
    check('lint', 'npm', ['run', '--silent', 'lint']);
  }
  // The browser tests drive the built site and console in Debian's Chromium; the process
  // tests run the built server, as `npm start` does.
  check('build the server, the customer site and the staff console', 'npm', ['run', '--silent', 'build']);
  // Chromium for the browser tests; Xvfb and ImageMagick photograph the host's window.
  const debianPackages = { '/usr/bin/chromium': 'chromium', '/usr/bin/Xvfb': 'xvfb', '/usr/bin/import': 'imagemagick' };
  const missing = Object.entries(debianPackages).filter(([file]) => !fs.existsSync(file));
  if (missing.length > 0) {
    const names = missing.map(([, name]) => name).join(' ');
    check(`install ${names} (Debian packages)`, 'sh', [
      '-c',
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${names}`,
    ]);
  }

  const jestResults = path.join(root, '.infra', 'jest-results.json');
  fs.rmSync(jestResults, { force: true });
  run('jest: unit, integration and end-to-end tests', bin('jest'), ['--json', `--outputFile=${jestResults}`, ...jestArgs], infraEnv);
  count('jest', jestResults);

  if (jestArgs.length === 0) {
    const vitestResults = path.join(root, '.infra', 'vitest-results.json');
    fs.rmSync(vitestResults, { force: true });
    run('vitest: the customer site', bin('vitest'), [
      'run',
      '--root',
      'web',
      '--passWithNoTests',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestResults}`,
    ]);
    count('vitest', vitestResults);

    // schemathesis against the built api: each run (anonymous, customer, staff) is one check,
    // passed when it found no 5xx and no answer that breaks the document.
    const fuzzResults = path.join(paths.infra, 'fuzz-results.json');
    const fuzzed = run(
      'fuzz: schemathesis against the built api and its OpenAPI document',
      process.execPath,
      ['infra/scripts/fuzz.mjs'],
      infraEnv,
    );
    const runs = fs.existsSync(fuzzResults) ? JSON.parse(fs.readFileSync(fuzzResults, 'utf8')) : [];
    for (const r of runs) results[r.failures === 0 ? 'passed' : 'failed'] += 1;
    if (!fuzzed && runs.every((r) => r.failures === 0)) {
      results.failed += 1;
      console.error('✗ fuzz failed before it could report (see above)');
    }
  }
} catch (error) {
  results.failed += 1;
  console.error(`✗ ${error.stack ?? error}`);
} finally {
  if (started.length > 0) await down(started).catch((error) => console.error(`stopping infra: ${error.message}`));
}

const skipped = results.skipped > 0 ? `, ${results.skipped} skipped` : '';
console.log(`\n${results.passed} passed, ${results.failed} failed${skipped}`);
process.exit(results.failed > 0 ? 1 : 0);
