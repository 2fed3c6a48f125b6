// `npm test`: everything, against real servers. Starts the loopback infrastructure
// (installing it once, cached), checks types and lint, runs every Jest tier, Vitest and the
// fuzzer, and ends with the checks' line and then `N passed, N failed`: passed counts tests,
// failed counts every failure (a test, a suite, a runner, a check), each named above them.
// Servers this run started are stopped again at the end.
//
//   npm test                      all of it
//   npm test -- <jest args>       e.g. a path pattern, passed through to Jest
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import * as infra from '../lib/index.mjs';
import { gemma3Gguf, smollm2Gguf } from '../lib/model.mjs';
import { nodeLlamaCpp } from '../lib/llama-cpp.mjs';
import { ensureSystemTools } from '../lib/system-tools.mjs';
import { ownServers } from '../lib/own-servers.cjs';
import objectStore from '@meshwork/testkit/api/object-store.cjs';
import { fuzzChecks, summary, tallyRunner } from '../lib/test-tally.cjs';

const { isTestBucket, minioClient, removeBucket } = objectStore;
const root = path.resolve(import.meta.dirname, '../..');
const jestArgs = process.argv.slice(2);
const tallies = [];
const checks = []; // { name, failure }: failure null when it passed
/** How long each command took, printed before the summary: where a slow run spent its time. */
const timings = [];
const servers = ownServers(infra);

let interrupted = null;
const running = new Set();
// Interrupted (Ctrl-C, CI timeout): stop what this run started, so the next run finds the ports free.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    interrupted = signal;
    console.error(`\n${signal}: stopping the servers this run started`);
    for (const child of running) child.kill(signal);
    servers.stop().finally(() => process.exit(130));
  });
}

/**
 * Runs a command to its end; answers its exit code, or the signal or error that ended it. Its
 * output goes straight through, or with `quiet` is kept and printed under its label at its end
 * (for commands run side by side, whose lines would otherwise interleave).
 */
async function run(label, command, args, extraEnv = {}, { quiet = false } = {}) {
  if (interrupted) throw new Error(`${interrupted}: not running ${label}`);
  if (!quiet) console.log(`\n▶ ${label}`);
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: root,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...extraEnv },
  });
  running.add(child);
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  try {
    const [code, signal] = await once(child, 'exit');
    return code ?? signal;
  } catch (error) {
    return error.code ?? error.message; // it did not start
  } finally {
    running.delete(child);
    timings.push(`${label.split(/[: ]/)[0]} ${Math.round((performance.now() - started) / 1000)} s`);
    if (quiet) process.stdout.write(`\n▶ ${label}\n${Buffer.concat(output).toString()}`);
  }
}

/** A check's outcome: passed when its command exited 0. */
const outcome = (name, exit) => ({ name, failure: exit === 0 ? null : `exited ${exit}` });

/** A check: a command run to its end. */
async function check(name, label, command, args) {
  checks.push(outcome(name, await run(label, command, args)));
}

/** A JSON file a command wrote, or null when it wrote none or broke off writing it. */
function readReport(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** A test runner writing a Jest-format JSON report (Jest and Vitest both write one) to `report`. */
async function runTests(runner, label, command, args, report, extraEnv) {
  fs.rmSync(report, { force: true });
  const exit = await run(label, command, args, extraEnv);
  tallies.push(tallyRunner(runner, readReport(report), exit, root));
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

/** Test buckets a killed run left behind (the databases' twins in the object store). */
async function removeLeftoverBuckets(env) {
  const client = minioClient(env);
  for (const { name } of await client.listBuckets()) if (isTestBucket(name)) await removeBucket(client, name);
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
try {
  console.log('▶ infrastructure: PostgreSQL, Kafka, MinIO, stripe-mock, mail catcher');
  await servers.start();
  // The model engine's tests run the real model (fetched once, cached beside the servers).
  // llama.cpp, the reference the engine's conformance tests compare against (node-llama-cpp's entry URL).
  const infraEnv = {
    ...infra.env(),
    MESHWORK_SMOLLM2_GGUF: await smollm2Gguf(),
    MESHWORK_GEMMA3_GGUF: await gemma3Gguf(),
    MESHWORK_NODE_LLAMA_CPP: await nodeLlamaCpp(),
  };
  // Only the test processes get these: in this process DATABASE_URL would make infra
  // treat its own PostgreSQL as someone else's and leave it running at the end.
  await dropLeftoverDatabases(infraEnv.DATABASE_URL);
  await removeLeftoverBuckets(infraEnv);
  timings.push(`infrastructure ${Math.round(performance.now() / 1000)} s`);

  if (jestArgs.length === 0) {
    // Side by side: each keeps one core busy for about half a minute.
    const [typed, linted] = await Promise.all([
      run('typecheck', 'npm', ['run', '--silent', 'typecheck'], {}, { quiet: true }),
      run('lint', 'npm', ['run', '--silent', 'lint'], {}, { quiet: true }),
    ]);
    checks.push(outcome('typecheck', typed), outcome('lint', linted));
  }
  // The browser tests drive the built site and console in Debian's Chromium; the process
  // tests run the built server, as `npm start` does.
  await check('build', 'build the server, the customer site and the staff console', 'npm', ['run', '--silent', 'build']);
  // Chromium for the browser tests; Xvfb and ImageMagick photograph the host's window.
  const debianPackages = { '/usr/bin/chromium': 'chromium', '/usr/bin/Xvfb': 'xvfb', '/usr/bin/import': 'imagemagick' };
  const missing = Object.entries(debianPackages).filter(([file]) => !fs.existsSync(file));
  if (missing.length > 0) {
    const names = missing.map(([, name]) => name).join(' ');
    await check(`install ${names}`, `install ${names} (Debian packages)`, 'sh', [
      '-c',
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${names}`,
    ]);
  }

  // makensis and 7zz: the desktop release tests build the Windows installer and unpack it.
  try {
    ensureSystemTools();
  } catch (error) {
    checks.push({ name: 'release tools', failure: error.message });
  }

  const jestReport = path.join(root, '.infra', 'jest-results.json');
  await runTests(
    'jest',
    'jest: unit, integration and end-to-end tests',
    bin('jest'),
    ['--json', `--outputFile=${jestReport}`, ...jestArgs],
    jestReport,
    infraEnv,
  );

  if (jestArgs.length === 0) {
    // No --passWithNoTests: a Vitest that finds no test has lost them, and fails.
    const vitestReport = path.join(root, '.infra', 'vitest-results.json');
    await runTests(
      'vitest',
      'vitest: the customer site',
      bin('vitest'),
      ['run', '--root', 'web', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
      vitestReport,
    );

    // schemathesis against the built api: each run (anonymous, customer, staff) is one check.
    const fuzzResults = path.join(infra.paths.infra, 'fuzz-results.json');
    fs.rmSync(fuzzResults, { force: true }); // a file from an earlier run must not speak for this one
    const fuzzed = await run(
      'fuzz: schemathesis against the built api and its OpenAPI document',
      process.execPath,
      ['infra/scripts/fuzz.mjs'],
      infraEnv,
    );
    checks.push(...fuzzChecks(readReport(fuzzResults) ?? [], fuzzed));
  }
} catch (error) {
  checks.push({ name: 'npm test', failure: error.message.replace(/\s*\n\s*/g, ' ') });
  console.error(`✗ ${error.stack ?? error}`);
} finally {
  await servers.stop().catch((error) => console.error(`stopping infra: ${error.message}`));
}

const { failed, lines } = summary(tallies, checks);
console.log(`\ntimes: ${timings.join(', ')}; in all ${Math.round(performance.now() / 1000)} s`);
console.log(`\n${lines.join('\n')}`);
process.exit(failed > 0 ? 1 : 0);
