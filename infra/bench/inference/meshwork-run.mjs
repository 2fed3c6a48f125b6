// One benchmark process for Meshwork's engine: loads a package, then prefills the prompt and
// decodes greedily, RUNS times after a warm-up, and prints one JSON line with the medians and
// the process's peak RSS. Its own process, so the RSS is the engine's alone.
//   node meshwork-run.mjs <package dir> <prompt ids json> <decode tokens> <threads>
//
// After the timed runs, one more decode measures what onnxruntime-node's output copies cost:
// it copies every output a run fetches (the logits, the new keys and values) out of
// onnxruntime into a new JavaScript buffer. Each output is copied once more here the same way
// (a new buffer, one memcpy), timed, so the timed runs themselves carry no extra copy.
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

// Per decoded token: the bytes of every fetched output, the logits' share, and the time one
// more copy of them takes (BlockRunner's session is private to TypeScript, not to JavaScript).
const copies = { outputBytes: [], logitsBytes: [], ms: [] };
const counting = () => ({ outputBytes: 0, logitsBytes: 0, ms: 0 });
let token = counting();
for (const block of model.blocks) {
  const run = block.session.run.bind(block.session);
  block.session.run = async (...args) => {
    const results = await run(...args);
    for (const [name, tensor] of Object.entries(results)) {
      const started = performance.now();
      tensor.data.slice();
      token.ms += performance.now() - started;
      token.outputBytes += tensor.data.byteLength;
      if (name === 'logits') token.logitsBytes += tensor.data.byteLength;
    }
    return results;
  };
}
model.truncate(0);
let logits = await model.forward(prompt);
for (let i = 0; i < Math.min(decodeTokens, 32); i++) {
  token = counting();
  logits = await model.forward([argmax(logits)]);
  for (const key of Object.keys(copies)) copies[key].push(token[key]);
}
const outputCopy = {
  outputBytesPerToken: median(copies.outputBytes),
  logitsBytesPerToken: median(copies.logitsBytes),
  copyMsPerToken: median(copies.ms),
};
report({ loadMs, prefill, decode, baseRssBytes, outputCopy });
await model.release();
