// The same measurement with llama.cpp (node-llama-cpp's prebuilt CPU binary), on the same GGUF
// and the same prompt ids, greedy, one thread:
//   node llama-cpp-run.mjs <module url> <gguf> <prompt ids json> <decode tokens> <threads>
import { readFileSync } from 'node:fs';
import { report, rssBytes, RUNS } from './measure.mjs';

const [moduleUrl, gguf, promptFile, decodeArg, threadsArg] = process.argv.slice(2);
const { getLlama } = await import(moduleUrl);
const prompt = JSON.parse(readFileSync(promptFile, 'utf8'));
const decodeTokens = Number(decodeArg);

const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
const baseRssBytes = rssBytes();
const loadStarted = performance.now();
const model = await llama.loadModel({ modelPath: gguf, gpuLayers: 0 });
const context = await model.createContext({ threads: Number(threadsArg), contextSize: 2048, batchSize: 1024 });
const loadMs = performance.now() - loadStarted;

const prefill = [];
const decode = [];
for (let run = 0; run <= RUNS; run++) {
  const sequence = context.getSequence();
  const started = performance.now();
  let firstAt = 0;
  let produced = 0;
  // The first token arrives once the prompt is evaluated; each later one is one decode step.
  const tokens = sequence.evaluate(prompt, { temperature: 0 });
  while (!(await tokens.next()).done) {
    if (produced === 0) firstAt = performance.now();
    if (produced++ === decodeTokens) break;
  }
  await tokens.return?.();
  const endedAt = performance.now();
  sequence.dispose();
  if (run === 0) continue;
  prefill.push((prompt.length / (firstAt - started)) * 1000);
  decode.push((decodeTokens / (endedAt - firstAt)) * 1000);
}
report({ loadMs, prefill, decode, baseRssBytes });
await context.dispose();
await model.dispose();
