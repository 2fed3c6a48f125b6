#!/usr/bin/env node
// Inference benchmark: `npm run bench:inference` (builds the desktop engine first).
//
// In one run, on the same GGUF (SmolLM2-135M-Instruct Q4_1, fetched by infra), the same prompt
// ids and one thread, each engine in a process of its own:
//   - llama.cpp through node-llama-cpp (the baseline);
//   - Meshwork's engine on the model packed as 1 block and as 3 blocks (int8 activations, as
//     llama.cpp does for Q4; `model:pack` packs exact fp32 unless asked for int8);
// prefill and decode tokens/s (median of 3 after a warm-up), load time and peak RSS. Prints
// the ratios against their targets: decode and prefill ≥ 1.0x llama.cpp, 3 blocks ≥ 0.95x
// 1 block, peak RSS ≤ 1.3x the weights.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { nodeLlamaCpp } from '../lib/llama-cpp.mjs';
import { smollm2Gguf } from '../lib/model.mjs';

const require = createRequire(import.meta.url);
const { packModel } = require('../../desktop/dist/desktop/src/pack/packer.js');
const { Tokenizer } = require('../../desktop/dist/desktop/src/engine/tokenizer/tokenizer.js');

const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const DECODE_TOKENS = Number(process.env.BENCH_DECODE_TOKENS ?? 128);
const here = import.meta.dirname;

function child(script, args) {
  const output = execFileSync(process.execPath, [path.join(here, 'inference', script), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output.trim().split('\n').pop());
}

async function main() {
  const gguf = await smollm2Gguf();
  const llamaCpp = await nodeLlamaCpp();
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-inference-'));
  try {
    for (const blocks of [1, 3]) await packModel({ gguf, out: path.join(work, `blocks-${blocks}`), blocks, activations: 'int8' });
    const tokenizer = Tokenizer.fromJson(JSON.parse(readFileSync(path.join(work, 'blocks-1', 'tokenizer.json'), 'utf8')));
    const english = tokenizer.encode(readFileSync(path.join(here, '../../desktop/src/engine/testing/english.txt'), 'utf8'));
    // BENCH_PROMPT_TOKENS shortens the prompt: decode speed depends on the context length.
    const prompt = english.slice(0, Number(process.env.BENCH_PROMPT_TOKENS ?? english.length));
    const promptFile = path.join(work, 'prompt.json');
    writeFileSync(promptFile, JSON.stringify(prompt));
    console.log(`prompt ${prompt.length} tokens, ${DECODE_TOKENS} decoded, ${THREADS} thread(s), ${os.cpus().length} cores\n`);

    const base = child('llama-cpp-run.mjs', [llamaCpp, gguf, promptFile, String(DECODE_TOKENS), String(THREADS)]);
    const one = child('meshwork-run.mjs', [path.join(work, 'blocks-1'), promptFile, String(DECODE_TOKENS), String(THREADS)]);
    const three = child('meshwork-run.mjs', [path.join(work, 'blocks-3'), promptFile, String(DECODE_TOKENS), String(THREADS)]);
    const weights = statSync(gguf).size;

    const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
    for (const [label, r] of [
      ['llama.cpp', base],
      ['Meshwork, 1 block', one],
      ['Meshwork, 3 blocks', three],
    ]) {
      console.log(`${label}: ${mb(r.baseRssBytes)} resident before loading`);
    }
    const row = (name, r) =>
      console.log(
        `${name.padEnd(22)} ${r.prefillTokensPerSecond.toFixed(0).padStart(8)} ${r.decodeTokensPerSecond.toFixed(1).padStart(8)} ${r.loadMs.toFixed(0).padStart(8)} ${mb(r.peakRssBytes).padStart(9)}`,
      );
    console.log(
      `${'engine'.padEnd(22)} ${'prefill'.padStart(8)} ${'decode'.padStart(8)} ${'load ms'.padStart(8)} ${'peak RSS'.padStart(9)}   (tokens/s)`,
    );
    row('llama.cpp', base);
    row('Meshwork, 1 block', one);
    row('Meshwork, 3 blocks', three);
    const ratio = (label, value, target) =>
      console.log(
        `${label.padEnd(44)} ${value.toFixed(2).padStart(6)}x  target ${target}  ${value >= Number(target.slice(2, -1)) === target.startsWith('≥') ? 'met' : 'NOT met'}`,
      );
    console.log(`\nweights (the GGUF): ${mb(weights)}`);
    ratio('decode, Meshwork 1 block / llama.cpp', one.decodeTokensPerSecond / base.decodeTokensPerSecond, '≥ 1.0x');
    ratio('prefill, Meshwork 1 block / llama.cpp', one.prefillTokensPerSecond / base.prefillTokensPerSecond, '≥ 1.0x');
    ratio('decode, 3 blocks / 1 block', three.decodeTokensPerSecond / one.decodeTokensPerSecond, '≥ 0.95x');
    ratio('prefill, 3 blocks / 1 block', three.prefillTokensPerSecond / one.prefillTokensPerSecond, '≥ 0.95x');
    ratio('peak RSS, Meshwork 1 block / weights', one.peakRssBytes / weights, '≤ 1.3x');
    ratio('peak RSS, llama.cpp / weights', base.peakRssBytes / weights, '≤ 1.3x');
    // The same without what the process held before loading (Node itself and the engine's library).
    ratio('peak RSS above the start, Meshwork 1 block / weights', (one.peakRssBytes - one.baseRssBytes) / weights, '≤ 1.3x');
    ratio('peak RSS above the start, llama.cpp / weights', (base.peakRssBytes - base.baseRssBytes) / weights, '≤ 1.3x');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
