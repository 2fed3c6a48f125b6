// One benchmark process for Meshwork's engine: loads a package, then prefills the prompt and
// decodes greedily, RUNS times after a warm-up, and prints one JSON line with the medians and
// the process's peak RSS. Its own process, so the RSS is the engine's alone.
//   node meshwork-run.mjs <package dir> <prompt ids json> <decode tokens> <threads>
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { report, rssBytes, RUNS } from './measure.mjs';

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
report({ loadMs, prefill, decode, baseRssBytes });
await model.release();
