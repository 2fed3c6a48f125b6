#!/usr/bin/env node
// `npm run fuzz`: schemathesis against the built api and the document it serves.
//
// Starts dist/api (full mode, on the running loopback servers, a fresh database), seeds a
// customer and a staff account, and fuzzes /api/v1/openapi.json four times: anonymous, as the
// customer, with the customer's read_write API token (issue 35), as staff. Calls that would end
// the seeded accounts' sessions are left out. Each run has a time budget (FUZZ_SECONDS, default
// 30: four runs in two minutes, ~4,000 cases each, so the cold CI run stays under 25 minutes). Fails on any 5xx, on any answer that breaks
// the document, when schemathesis itself fails, and on a run that tested no operation. Prints
// the counts; the last line is `fuzz: N operations, N cases, N failures, N 5xx`, and
// .infra/fuzz-results.json has them per run, with schemathesis's exit code (npm test counts each
// run as one check).
//
//   npm run build:server && npm run fuzz        (the servers running: npm run infra:up)
//   FUZZ_SEED=123 npm run fuzz                  replay a run (every run prints its seed)
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import apiProcess from '@meshwork/testkit/api/api-process.cjs';
import { repoRoot } from '../lib/config.mjs';
import { env, isReady, names, paths } from '../lib/index.mjs';
import { pipInstall } from '../lib/pytool.mjs';
import { fuzzRunFailure } from '../lib/test-tally.cjs';

export const SCHEMATHESIS_VERSION = process.env.MESHWORK_SCHEMATHESIS_VERSION || '4.32.5';
const seconds = Number(process.env.FUZZ_SECONDS || 30);
const seed = Number(process.env.FUZZ_SEED || Math.floor(Math.random() * 2 ** 31));
export const RESULTS = path.join(paths.infra, 'fuzz-results.json');

// The checks that fail the run: a 5xx, or an answer the document does not describe.
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'unsupported_method',
];

// Ending the session in use, or the seeded accounts, would turn the rest of the run into 401s.
const ENDS_OWN_SESSION = [
  ['POST', '/api/v1/logout'],
  ['POST', '/api/v1/change-password'],
  ['POST', '/api/v1/users/delete-account'],
  ['POST', '/api/v1/password-reset-confirm'],
  ['POST', '/api/v1/auth/reset-password'],
];
const ENDS_SEEDED_USERS = [
  ['PUT', '/api/v1/admin-panel/users/{id}'],
  ['DELETE', '/api/v1/admin-panel/users/{id}'],
];

const exclusions = (calls) => calls.flatMap(([method, p]) => ['--exclude-name', `${method} ${p}`]);

/** One schemathesis run: its JSON report, and its exit code (or the signal that ended it). */
function fuzz(st, label, base, { token, exclude = [] }) {
  const report = path.join(paths.infra, `fuzz-${label}.json`);
  fs.rmSync(report, { force: true });
  const args = [
    'run',
    `${base}/api/v1/openapi.json`,
    '--url',
    base,
    '--checks',
    CHECKS.join(','),
    '--max-time',
    String(seconds),
    // One worker: the api and PostgreSQL need the other core, and Python 3.11's ast.parse is not
    // safe across hypothesis's threads (schemathesis then reports a runtime error of its own).
    '--workers',
    '1',
    '--seed',
    String(seed),
    '--generation-database',
    'none',
    '--no-color',
    '--report',
    'json',
    '--report-json-path',
    report,
    ...(token ? ['--header', `Authorization: Bearer ${token}`] : []),
    ...exclusions(exclude),
  ];
  console.log(`\n▶ fuzz ${label}: ${seconds} s, seed ${seed}`);
  const { status, signal } = spawnSync(st, args, { stdio: 'inherit', cwd: paths.infra });
  if (!fs.existsSync(report)) throw new Error(`schemathesis wrote no report for ${label} (exited ${status ?? signal})`);
  return { report: JSON.parse(fs.readFileSync(report, 'utf8')), exitCode: status ?? signal };
}

async function seedAccounts(api) {
  const customer = { email: `fuzz-${Date.now()}@example.com`, username: `fuzz_${Date.now()}`, password: 'Fuzz1Password' };
  const registered = await fetch(`${api.base}/register/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...customer, password_confirm: customer.password }),
  });
  if (registered.status !== 201) throw new Error(`could not register the customer: ${registered.status} ${await registered.text()}`);
  const tokens = { customer: (await registered.json()).tokens.access, staff: await api.staffToken() };
  return { ...tokens, apiToken: await seedApiToken(api, tokens) };
}

/**
 * A read_write API token of the customer's: the free plan is opened to read_write tokens with
 * no practical rate limit first, so the run reaches the routes rather than the limiter.
 */
async function seedApiToken(api, { customer, staff }) {
  const call = async (path, method, token, body) => {
    const response = await fetch(`${api.base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  await call('/admin-panel/plans/free/', 'PUT', staff, { api_token_scope: 'read_write', api_requests_per_minute: 1_000_000 });
  return (await call('/users/api-tokens/', 'POST', customer, { name: 'fuzz', scope: 'read_write' })).token;
}

async function main() {
  fs.rmSync(RESULTS, { force: true });
  for (const name of names)
    if (!(await isReady(name))) throw new Error(`${name} is not answering: start the servers first (npm run infra:up)`);
  if (!fs.existsSync(path.join(repoRoot, 'dist/api/src/main.js'))) throw new Error('build the api first: npm run build:server');
  fs.mkdirSync(paths.infra, { recursive: true });
  const st = await pipInstall('schemathesis', SCHEMATHESIS_VERSION, { bin: 'st' });
  // The servers' addresses; the api's own database is made by startApiProcess on that PostgreSQL.
  const { DATABASE_URL: server, ...servers } = env();
  // Rate limits off for the run: the fuzzer should reach the validation, not the limiter.
  const api = await apiProcess.startApiProcess('fuzz', server, { ...servers, AUTH_RATE_LIMIT_PER_MINUTE: '1000000' });
  const base = api.base.replace(/\/api\/v1$/, '');
  const totals = { operations: 0, cases: 0, failures: 0, serverErrors: 0 };
  const results = [];
  try {
    const tokens = await seedAccounts(api);
    const runs = [
      ['anonymous', {}],
      ['customer', { token: tokens.customer, exclude: ENDS_OWN_SESSION }],
      ['api-token', { token: tokens.apiToken, exclude: ENDS_OWN_SESSION }],
      ['staff', { token: tokens.staff, exclude: [...ENDS_OWN_SESSION, ...ENDS_SEEDED_USERS] }],
    ];
    for (const [label, options] of runs) {
      const { report, exitCode } = fuzz(st, label, base, options);
      const serverErrors = report.failures.filter((f) => /server error/i.test(f.title) || f.code === 'server_error');
      const count = (list) => list.reduce((sum, f) => sum + (f.count ?? 1), 0);
      totals.operations = Math.max(totals.operations, report.operations.tested);
      totals.cases += report.test_cases.generated;
      totals.failures += count(report.failures) + count(report.errors);
      totals.serverErrors += count(serverErrors);
      const result = {
        run: label,
        operations: report.operations.tested,
        cases: report.test_cases.generated,
        failures: count(report.failures) + count(report.errors),
        serverErrors: count(serverErrors),
        exitCode,
      };
      results.push(result);
      console.log(
        `fuzz ${label}: ${report.operations.tested} operations, ${report.test_cases.generated} cases, ` +
          `${count(report.failures)} failures (${count(serverErrors)} 5xx), ${count(report.errors)} errors`,
      );
      for (const failure of report.failures) console.log(`  ${failure.title} (${failure.count}): ${failure.operations.join(', ')}`);
      const failure = fuzzRunFailure(result);
      if (failure) console.log(`✗ fuzz ${label} failed: ${failure}`);
    }
  } finally {
    await api.stop();
    fs.writeFileSync(RESULTS, JSON.stringify(results, null, 2));
  }
  console.log(`\nfuzz: ${totals.operations} operations, ${totals.cases} cases, ${totals.failures} failures, ${totals.serverErrors} 5xx`);
  return results.every((result) => fuzzRunFailure(result) === null) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
