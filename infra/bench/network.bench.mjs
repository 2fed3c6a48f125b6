#!/usr/bin/env node
// LAN network benchmark: `npm run bench:network` (builds the contracts and the desktop first).
//
// Brings infra's servers up and the real model into the cache, then runs network/run.ts (the
// desktop's TypeScript test kit: the api in process, hosts in Linux network namespaces on a
// link-local bridge). Needs root for the namespaces. See network/run.ts for what it measures.
// Stops the servers it started when done, failed or interrupted; exits with run.ts's code.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import * as infra from '../lib/index.mjs';
import { smollm2Gguf } from '../lib/model.mjs';
import { ownServers } from '../lib/own-servers.cjs';
import { runBenchmark } from './run-benchmark.mjs';

const servers = ownServers(infra);
let run;

async function main() {
  await servers.start();
  const gguf = await smollm2Gguf();
  const root = path.resolve(import.meta.dirname, '../..');
  // Not spawnSync: this process must stay free to hear Ctrl-C and stop the servers.
  run = spawn(process.execPath, ['-r', '@swc-node/register', 'infra/bench/network/run.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...infra.env(), MESHWORK_SMOLLM2_GGUF: gguf },
  });
  const [code] = await once(run, 'exit');
  process.exitCode = code ?? 1;
}

async function cleanup() {
  // Ctrl-C reaches run.ts as well; a SIGTERM sent to this process alone must end it too, and
  // it must be gone before the servers it uses are.
  if (run && run.exitCode === null && run.signalCode === null) {
    run.kill('SIGTERM');
    await once(run, 'exit');
  }
  await servers.stop();
}

await runBenchmark(main, cleanup, 'stopping run.ts and the servers this run started');
