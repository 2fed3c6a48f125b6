#!/usr/bin/env node
// Inference benchmark: `npm run bench:inference` (builds the desktop engine first).
//
// In one run, one thread and then two, on each model's GGUF and the same prompt ids, each
// engine in a process of its own (so /proc's VmHWM is that engine's peak RSS alone):
//   - llama.cpp through node-llama-cpp (the reference);
//   - Meshwork's engine on the model packed as 1 block with int8 activations (as llama.cpp
//     rounds activations for quantised types; `model:pack` packs exact fp32 unless asked), and
//     with fp32 activations too if BENCH_ACTIVATIONS asks.
// Models: SmolLM2-135M Q4_1 and Gemma 3 270M Q4_K_M (fetched by infra), and a random-weight
// model with Llama 3.1 8B's shape as Q4_K_M (llama.cpp's recipe), written once into the cache.
// Each package is packed once into the cache (keyed by the packer's build), in a process of its
// own: that first pack's time and peak RSS are kept beside it and printed on every run.
// Per model: prefill and decode tokens/s (median of BENCH_RUNS after a warm-up), load time,
// peak RSS, the ratios against their targets, and what onnxruntime-node's copy of every fetched
// output costs a decoded token. Exits 0 on a MISS (it is a report), 1 if it broke.
//
// Knobs: BENCH_MODELS=smollm2,gemma3,llama8b (default all), BENCH_THREADS=1,2,
// BENCH_PROMPT_TOKENS, BENCH_DECODE_TOKENS, BENCH_RUNS (defaults per model below),
// BENCH_BLOCKS=1,3 to add the 3-block package (target ≥ 0.95x of 1 block), BENCH_ACTIVATIONS=
// int8,fp32 to add the fp32 package (its ratios are checked too), BENCH_PROFILE=1 to profile
// the decode steps of each 1-block package node by node afterwards (inference/meshwork-profile.mjs).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { paths } from '../lib/config.mjs';
import { nodeLlamaCpp } from '../lib/llama-cpp.mjs';
import { gemma3Gguf, smollm2Gguf } from '../lib/model.mjs';
import { q4KMedium, writeSyntheticGguf } from './pack/synthetic-gguf.mjs';
import { runBenchmark } from './run-benchmark.mjs';

const require = createRequire(import.meta.url);
const { Tokenizer } = require('../../desktop/dist/desktop/src/engine/tokenizer/tokenizer.js');

const here = import.meta.dirname;
const GB = 1e9;
/** The synthetic GGUF's cache key: change it when the writer or the shape changes. */
const SYNTHETIC_VERSION = 'llama3.1-8b-shape-q4_k_m-v1';
const cache = path.join(paths.cache, 'bench-inference');
/** What an interrupted run leaves half-written: removed by the cleanup. */
const scratch = new Set();
const LLAMA_8B = { layers: 32, hidden: 4096, ffn: 14336, heads: 32, kvHeads: 8, vocab: 128256, context: 2048 };

/** The synthetic 8B-shaped GGUF, written into the cache the first time (about 4.9 GB). */
function syntheticLlama8b() {
  const file = path.join(cache, `${SYNTHETIC_VERSION}.gguf`);
  if (fs.existsSync(file)) return file;
  ensureDisk(14 * GB, 'writing and packing the 8B-shaped model');
  fs.mkdirSync(cache, { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  scratch.add(partial);
  console.log(`writing the synthetic Llama 3.1 8B-shaped Q4_K_M GGUF into ${cache} (first time only)...`);
  const started = performance.now();
  try {
    writeSyntheticGguf(partial, { ...LLAMA_8B, typeOf: q4KMedium(LLAMA_8B.layers) });
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  console.log(`  written in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return file;
}

// Defaults per model: the 8B shape decodes a few tokens a second on one core, so fewer.
const MODELS = {
  smollm2: { label: 'SmolLM2-135M Q4_1', gguf: smollm2Gguf, decodeTarget: 0.9, prompt: Infinity, decode: 128, runs: 3 },
  gemma3: { label: 'Gemma 3 270M Q4_K_M', gguf: gemma3Gguf, decodeTarget: 0.9, prompt: Infinity, decode: 128, runs: 3 },
  llama8b: { label: 'Llama 3.1 8B shape Q4_K_M', gguf: syntheticLlama8b, decodeTarget: 1.0, prompt: 128, decode: 16, runs: 1 },
};
const PREFILL_TARGET = 1.0;
const RSS_TARGET = 1.3;
const BLOCKS_TARGET = 0.95;

const list = (value, fallback) =>
  (value ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
const fmt = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

function memAvailable() {
  return Number(/^MemAvailable:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'))[1]) * 1024;
}

function ensureDisk(bytes, what) {
  fs.mkdirSync(cache, { recursive: true });
  const { bavail, bsize } = fs.statfsSync(cache);
  if (bavail * bsize < bytes) throw new Error(`${what} needs about ${mb(bytes)} free in ${cache}; ${mb(bavail * bsize)} are free`);
}

function directoryBytes(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .reduce((sum, e) => sum + (e.isFile() ? fs.statSync(path.join(dir, e.name)).size : 0), 0);
}

/** The packer's build: a package packed by another build is packed again. */
function packerBuild() {
  const dir = path.join(here, '../../desktop/dist/desktop/src/pack');
  const hash = createHash('sha256');
  for (const name of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.js'))
    .sort())
    hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  return hash.digest('hex').slice(0, 12);
}

function child(script, args, env = {}) {
  const output = execFileSync(process.execPath, [path.join(here, ...script), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return JSON.parse(output.trim().split('\n').pop());
}

/**
 * The model's package in the cache, packed (by pack.bench's runner, in its own process) the
 * first time; answers it with that pack's time and peak RSS.
 */
function cachedPackage(key, gguf, blocks, activations, build) {
  const name = `${key}-${blocks}b-${activations}-${fs.statSync(gguf).size}-${build}`;
  const dir = path.join(cache, 'packages', name);
  const record = path.join(dir, 'bench-pack.json');
  if (fs.existsSync(record)) return { dir, ...JSON.parse(fs.readFileSync(record, 'utf8')), cached: true };
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // Older builds' packages of this model go: the 8B one is several GB.
  for (const old of fs.readdirSync(path.dirname(dir)).filter((n) => n.startsWith(`${key}-${blocks}b-${activations}-`)))
    fs.rmSync(path.join(path.dirname(dir), old), { recursive: true, force: true });
  ensureDisk((activations === 'int8' ? 2.5 : 3) * fs.statSync(gguf).size, `packing ${path.basename(gguf)}`);
  const partial = `${dir}.partial-${process.pid}`;
  scratch.add(partial);
  try {
    const r = child(['pack', 'pack-run.mjs'], [gguf, partial, String(blocks), activations]);
    const result = { ms: r.ms, peakRssBytes: r.peakRssBytes, packageBytes: directoryBytes(partial), packedAt: new Date().toISOString() };
    fs.writeFileSync(path.join(partial, 'bench-pack.json'), JSON.stringify(result));
    fs.renameSync(partial, dir);
    return { dir, ...result, cached: false };
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/** Whether the engine can load this package here: onnxruntime holds the weights and prepacks a copy of them. */
function meshworkFits(pkg) {
  const needed = 2 * pkg.packageBytes + 1 * GB;
  const available = memAvailable();
  return needed <= available
    ? null
    : `needs about ${mb(needed)} (twice the ${mb(pkg.packageBytes)} package while onnxruntime prepacks, plus 1 GB), ${mb(available)} available`;
}

const figures = [];
const check = (label, value, target, atLeast = true) => {
  const met = Number.isFinite(value) && (atLeast ? value >= target : value <= target);
  figures.push({ label, value, target: `${atLeast ? '≥' : '≤'} ${target.toFixed(1)}x`, met });
  console.log(
    `  ${label.padEnd(52)} ${fmt(value).padStart(7)}x  target ${atLeast ? '≥' : '≤'} ${target.toFixed(1)}x  ${met ? 'met' : 'NOT met'}`,
  );
};

async function main() {
  const keys = list(process.env.BENCH_MODELS, Object.keys(MODELS).join(','));
  for (const key of keys)
    if (!MODELS[key]) throw new Error(`BENCH_MODELS: no model "${key}"; the models are ${Object.keys(MODELS).join(', ')}`);
  const threadCounts = list(process.env.BENCH_THREADS, '1,2').map(Number);
  const blockCounts = list(process.env.BENCH_BLOCKS, '1').map(Number);
  const activationKinds = list(process.env.BENCH_ACTIVATIONS, 'int8');
  for (const a of activationKinds) if (a !== 'int8' && a !== 'fp32') throw new Error(`BENCH_ACTIVATIONS: int8 or fp32, not "${a}"`);
  const llamaCpp = await nodeLlamaCpp();
  const build = packerBuild();
  console.log(
    `inference benchmark ${new Date().toISOString()}: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${mb(memAvailable())} memory available`,
  );

  const prepared = [];
  for (const key of keys) {
    const model = MODELS[key];
    const gguf = await model.gguf();
    // One package per activations and block count, the first activations' first block count first.
    const packages = activationKinds.flatMap((activations) =>
      blockCounts.map((blocks) => ({ blocks, activations, ...cachedPackage(key, gguf, blocks, activations, build) })),
    );
    const one = packages[0];
    const tokenizer = Tokenizer.fromJson(JSON.parse(fs.readFileSync(path.join(one.dir, 'tokenizer.json'), 'utf8')));
    const english = tokenizer.encode(fs.readFileSync(path.join(here, '../../desktop/src/engine/testing/english.txt'), 'utf8'));
    const prompt = english.slice(0, Number(process.env.BENCH_PROMPT_TOKENS ?? model.prompt));
    const promptFile = path.join(cache, `prompt-${key}-${process.pid}.json`);
    scratch.add(promptFile);
    fs.writeFileSync(promptFile, JSON.stringify(prompt));
    prepared.push({ key, model, gguf, packages, prompt, promptFile });
  }

  console.log('\npacking, in a process of its own; "cached": packed by an earlier run of this packer build');
  console.log(
    `${'model'.padEnd(28)} ${'act.'.padStart(5)} ${'blocks'.padStart(6)} ${'GGUF'.padStart(9)} ${'package'.padStart(9)} ${'÷ GGUF'.padStart(7)} ${'pack s'.padStart(7)} ${'peak RSS'.padStart(9)}`,
  );
  for (const { model, gguf, packages } of prepared)
    for (const p of packages) {
      const ggufBytes = fs.statSync(gguf).size;
      console.log(
        `${model.label.padEnd(28)} ${p.activations.padStart(5)} ${String(p.blocks).padStart(6)} ${mb(ggufBytes).padStart(9)} ${mb(p.packageBytes).padStart(9)} ${`${(p.packageBytes / ggufBytes).toFixed(2)}x`.padStart(7)} ${(p.ms / 1000).toFixed(1).padStart(7)} ${mb(p.peakRssBytes).padStart(9)}${p.cached ? `  cached ${p.packedAt.slice(0, 16)}` : ''}`,
      );
    }

  for (const threads of threadCounts) {
    for (const { key, model, gguf, packages, prompt, promptFile } of prepared) {
      const decodeTokens = Number(process.env.BENCH_DECODE_TOKENS ?? model.decode);
      const env = { BENCH_RUNS: process.env.BENCH_RUNS ?? String(model.runs) };
      console.log(
        `\n${model.label}, ${threads} thread(s): prompt ${prompt.length} tokens, ${decodeTokens} decoded, median of ${env.BENCH_RUNS} after a warm-up`,
      );
      const rows = [
        ['llama.cpp', child(['inference', 'llama-cpp-run.mjs'], [llamaCpp, gguf, promptFile, String(decodeTokens), String(threads)], env)],
      ];
      for (const pkg of packages) {
        const label = `Meshwork ${pkg.activations}, ${pkg.blocks}b`;
        const refusal = meshworkFits(pkg);
        if (refusal) {
          console.log(`  ${label}: NOT RUN: ${refusal}`);
          continue;
        }
        rows.push([
          label,
          child(['inference', 'meshwork-run.mjs'], [pkg.dir, promptFile, String(decodeTokens), String(threads)], env),
          pkg,
        ]);
      }
      console.log(
        `  ${'engine'.padEnd(22)} ${'prefill'.padStart(8)} ${'decode'.padStart(8)} ${'load ms'.padStart(8)} ${'peak RSS'.padStart(9)} ${'at start'.padStart(9)}   (tokens/s)`,
      );
      for (const [label, r] of rows)
        console.log(
          `  ${label.padEnd(22)} ${r.prefillTokensPerSecond.toFixed(1).padStart(8)} ${r.decodeTokensPerSecond.toFixed(1).padStart(8)} ${r.loadMs.toFixed(0).padStart(8)} ${mb(r.peakRssBytes).padStart(9)} ${mb(r.baseRssBytes).padStart(9)}`,
        );
      const base = rows[0][1];
      // Each activations' first block count against llama.cpp; other block counts against it.
      for (const activations of activationKinds) {
        const ours = rows.find(([, , p]) => p?.activations === activations && p.blocks === blockCounts[0])?.[1];
        const tag = `${key}, ${activations}, ${threads}t`;
        check(
          `${tag}: decode, Meshwork / llama.cpp`,
          ours ? ours.decodeTokensPerSecond / base.decodeTokensPerSecond : NaN,
          model.decodeTarget,
        );
        check(
          `${tag}: prefill, Meshwork / llama.cpp`,
          ours ? ours.prefillTokensPerSecond / base.prefillTokensPerSecond : NaN,
          PREFILL_TARGET,
        );
        check(`${tag}: peak RSS, Meshwork / llama.cpp`, ours ? ours.peakRssBytes / base.peakRssBytes : NaN, RSS_TARGET, false);
        for (const [, r, p] of rows)
          if (ours && p?.activations === activations && p.blocks !== blockCounts[0])
            check(
              `${tag}: decode, ${p.blocks} blocks / ${blockCounts[0]}`,
              r.decodeTokensPerSecond / ours.decodeTokensPerSecond,
              BLOCKS_TARGET,
            );
        if (!ours) continue;
        const c = ours.outputCopy;
        const stepMs = 1000 / ours.decodeTokensPerSecond;
        console.log(
          `  onnxruntime-node's output copies a decoded token (${activations}): ${(c.outputBytesPerToken / 1e3).toFixed(0)} KB (logits ${(c.logitsBytesPerToken / 1e3).toFixed(0)} KB), ${c.copyMsPerToken.toFixed(3)} ms = ${((100 * c.copyMsPerToken) / stepMs).toFixed(2)}% of a ${stepMs.toFixed(1)} ms step`,
        );
      }
      if (process.env.BENCH_PROFILE === '1')
        for (const [label, , p] of rows.filter(([, , p]) => p?.blocks === blockCounts[0])) {
          console.log(`\n  profile, ${label}, ${threads} thread(s):`);
          execFileSync(
            process.execPath,
            [path.join(here, 'inference', 'meshwork-profile.mjs'), p.dir, promptFile, String(Math.min(decodeTokens, 9)), String(threads)],
            { stdio: ['ignore', 'inherit', 'inherit'] },
          );
        }
    }
  }

  const missed = figures.filter((f) => !f.met);
  console.log(
    `\n${figures.length - missed.length} of ${figures.length} targets met; load average now ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const f of missed) console.log(`  MISS ${f.label}: ${fmt(f.value)}x, target ${f.target}`);
  console.log(
    "onnxruntime-node 1.30 copies every output a run fetches into a new JavaScript buffer; its main branch hands CPU outputs over without a copy, and a run already fetches only the last position's logits and only the new keys and values.",
  );
}

await runBenchmark(
  main,
  async () => {
    for (const file of scratch) fs.rmSync(file, { recursive: true, force: true });
  },
  'removing the half-written files; the cache keeps what was finished',
);
