// One benchmark process for Meshwork's engine: loads a package, then prefills the prompt and
// decodes greedily, RUNS times after a warm-up, and prints one JSON line with the medians and
// the process's peak RSS. Its own process, so the RSS is the engine's alone.
//   node meshwork-run.mjs <package dir> <prompt ids json> <decode tokens> <threads>
//
// After the timed runs, what onnxruntime-node's output copies cost: it copies every output a
// run fetches (the logits, the new keys and values) out of onnxruntime into a new JavaScript
// buffer (the engine thread runs the sessions, so the copies are made here once more, timed,
// on buffers of the same sizes; the timed runs themselves carry no extra copy).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { median, report, rssBytes, RUNS } from './measure.mjs';

const require = createRequire(import.meta.url);
const { LocalModel } = require('../../../desktop/dist/desktop/src/engine/local-model.js');
const { argmax } = require('../../../desktop/dist/desktop/src/engine/sampler.js');

const [dir, promptFile, decodeArg, threadsArg] = process.argv.slice(2);
const prompt = JSON.parse(readFileSync(promptFile, 'utf8'));
const decodeTokens = Number(decodeArg);

const baseRssBytes = rssBytes();
const loadStarted = performance.now();
const model = await LocalModel.load(dir, { threads: Number(threadsArg) });
const loadMs = performance.now() - loadStarted;

const prefill = [];
const decode = [];
for (let run = 0; run <= RUNS; run++) {
  model.truncate(0);
  let started = performance.now();
  let logits = await model.forward(prompt);
  const prefillMs = performance.now() - started;
  started = performance.now();
  for (let i = 0; i < decodeTokens; i++) logits = await model.forward([argmax(logits)]);
  const decodeMs = performance.now() - started;
  if (run === 0) continue; // warm-up
  prefill.push((prompt.length / prefillMs) * 1000);
  decode.push((decodeTokens / decodeMs) * 1000);
}

// Per decoded token: the bytes of every output a run fetches (each block's new keys and values,
// every block but the last its hidden state, the last the logits), from the manifest, and the
// time one more copy of them takes (a new buffer, one memcpy, as the binding makes).
const { manifest } = model;
const outputs = manifest.blocks.map((block, index) => {
  const layers = block.layers[1] - block.layers[0];
  const handed = index === manifest.blocks.length - 1 ? manifest.vocabSize : manifest.hidden;
  return new Float32Array(2 * layers * manifest.kvHeads * manifest.headDim + handed).fill(1);
});
const copies = [];
for (let i = 0; i < 32; i++) {
  const started = performance.now();
  for (const output of outputs) output.slice();
  copies.push(performance.now() - started);
}
const outputCopy = {
  outputBytesPerToken: outputs.reduce((sum, output) => sum + output.byteLength, 0),
  logitsBytesPerToken: manifest.vocabSize * 4,
  copyMsPerToken: median(copies),
};
report({ loadMs, prefill, decode, baseRssBytes, outputCopy });
await model.release();
