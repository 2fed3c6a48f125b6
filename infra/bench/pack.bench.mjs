#!/usr/bin/env node
// Packing benchmark: `npm run bench:pack` (builds the desktop engine first).
//
// Packs, each in a process of its own, as one block with the default fp32 activations:
//   - Gemma 3 270M Q4_K_M (the real file, fetched by infra);
//   - a synthetic llama of about 1.2 GB (Q8_0, 16 layers, hidden 2048, FFN 8192, vocabulary
//     32,000), written into a temporary directory and removed after; BENCH_PACK_LAYERS changes
//     its size (about 73 MB a layer).
// Prints the pack time, the peak RSS, the largest tensor and the peak RSS above it. Target
// (issue 33): peak RSS under 1 GB above the largest tensor, whatever the model's size. Exits 0
// on a MISS (it is a report), 1 if it broke.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { gemma3Gguf } from '../lib/model.mjs';
import { writeSyntheticGguf } from './pack/synthetic-gguf.mjs';
import { runBenchmark } from './run-benchmark.mjs';

const require = createRequire(import.meta.url);
const { readGguf } = require('../../desktop/dist/desktop/src/pack/gguf.js');

const TARGET_ABOVE_LARGEST = 1e9;
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-pack-'));
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

async function largestTensor(gguf) {
  const file = await readGguf(gguf);
  return Math.max(...[...file.tensors.values()].map((t) => t.byteLength));
}

function pack(label, gguf) {
  const out = path.join(work, `${label.replace(/\W+/g, '-')}-package`);
  const output = execFileSync(process.execPath, [path.join(import.meta.dirname, 'pack', 'pack-run.mjs'), gguf, out, '1', 'fp32'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  rmSync(out, { recursive: true, force: true });
  return JSON.parse(output.trim().split('\n').pop());
}

async function main() {
  const synthetic = path.join(work, 'synthetic-llama.gguf');
  const layers = Number(process.env.BENCH_PACK_LAYERS ?? 16);
  writeSyntheticGguf(synthetic, { layers, hidden: 2048, ffn: 8192, heads: 16, kvHeads: 4, vocab: 32000, context: 4096 });
  const cases = [
    ['Gemma 3 270M Q4_K_M', await gemma3Gguf()],
    [`synthetic llama, ${layers} layers, Q8_0`, synthetic],
  ];
  console.log(
    `${'model'.padEnd(34)} ${'GGUF'.padStart(8)} ${'largest'.padStart(8)} ${'pack s'.padStart(7)} ${'peak RSS'.padStart(9)} ${'above'.padStart(8)}   target: under ${mb(TARGET_ABOVE_LARGEST)} above the largest tensor`,
  );
  for (const [label, gguf] of cases) {
    const largest = await largestTensor(gguf);
    const r = pack(label, gguf);
    const above = r.peakRssBytes - largest;
    console.log(
      `${label.padEnd(34)} ${mb(statSync(gguf).size).padStart(8)} ${mb(largest).padStart(8)} ${(r.ms / 1000).toFixed(1).padStart(7)} ${mb(r.peakRssBytes).padStart(9)} ${mb(above).padStart(8)}   ${above < TARGET_ABOVE_LARGEST ? 'met' : 'NOT met'}`,
    );
  }
}

await runBenchmark(main, async () => rmSync(work, { recursive: true, force: true }), `removing ${work}`);
