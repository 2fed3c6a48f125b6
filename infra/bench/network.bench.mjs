#!/usr/bin/env node
// LAN network benchmark: `npm run bench:network` (builds the contracts and the desktop first).
//
// Brings infra's servers up and the real model into the cache, then runs network/run.ts (the
// desktop's TypeScript test kit: the api in process, hosts in Linux network namespaces on a
// link-local bridge). Needs root for the namespaces. See network/run.ts for what it measures.
// For the capped stage (BENCH_STAGES, default `lan,capped`) with BENCH_CAPPED_MODEL=llama8b (the
// default) it also brings the 8B-shaped Q4_K_M GGUF (bench:inference's, written into the cache the
// first time) and llama.cpp (node-llama-cpp) for the baseline.
// Stops the servers it started when done, failed or interrupted; exits with run.ts's code.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { paths } from '../lib/config.mjs';
import * as infra from '../lib/index.mjs';
import { nodeLlamaCpp } from '../lib/llama-cpp.mjs';
import { smollm2Gguf } from '../lib/model.mjs';
import { ownServers } from '../lib/own-servers.cjs';
import { q4KMedium, writeSyntheticGguf } from './pack/synthetic-gguf.mjs';
import { runBenchmark } from './run-benchmark.mjs';

// bench:inference's synthetic model, same file: its name is the cache key (inference.bench.mjs).
const LLAMA_8B_VERSION = 'llama3.1-8b-shape-q4_k_m-v1';
const LLAMA_8B = { layers: 32, hidden: 4096, ffn: 14336, heads: 32, kvHeads: 8, vocab: 128256, context: 2048 };

/** The 8B-shaped GGUF in the cache, written the first time (about 4.9 GB) if the disk has room for it and the run. */
function llama8bGguf() {
  const dir = path.join(paths.cache, 'bench-inference');
  const file = path.join(dir, `${LLAMA_8B_VERSION}.gguf`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  const { bavail, bsize } = fs.statfsSync(dir);
  // The GGUF, then the capped stage's copies of its package (network/capped.ts counts them again).
  if (bavail * bsize < 26e9)
    throw new Error(
      `bench:network refuses to start: the 8B-shaped model and its package's copies need about 26 GB free in ${dir}; ${((bavail * bsize) / 1e9).toFixed(1)} GB are free`,
    );
  console.log(`writing the synthetic Llama 3.1 8B-shaped Q4_K_M GGUF into ${dir} (first time only)...`);
  const partial = `${file}.partial-${process.pid}`;
  try {
    writeSyntheticGguf(partial, { ...LLAMA_8B, typeOf: q4KMedium(LLAMA_8B.layers) });
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return file;
}

const servers = ownServers(infra);
let run;

async function main() {
  const stages = (process.env.BENCH_STAGES ?? 'lan,capped').split(',').map((s) => s.trim());
  const capped = stages.includes('capped');
  const llama8b = capped && (process.env.BENCH_CAPPED_MODEL ?? 'llama8b') === 'llama8b' ? llama8bGguf() : undefined;
  await servers.start();
  const gguf = await smollm2Gguf();
  const llamaCpp = capped ? await nodeLlamaCpp() : undefined;
  const root = path.resolve(import.meta.dirname, '../..');
  // Not spawnSync: this process must stay free to hear Ctrl-C and stop the servers.
  run = spawn(process.execPath, ['-r', '@swc-node/register', 'infra/bench/network/run.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      ...infra.env(),
      MESHWORK_SMOLLM2_GGUF: gguf,
      ...(llama8b ? { MESHWORK_BENCH_8B_GGUF: llama8b } : {}),
      ...(llamaCpp ? { MESHWORK_NODE_LLAMA_CPP: llamaCpp } : {}),
    },
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
