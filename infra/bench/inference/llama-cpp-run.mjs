// llama.cpp (node-llama-cpp's prebuilt CPU binary) on a GGUF and prompt ids, greedy, for both
// benchmarks that compare against it:
//   node llama-cpp-run.mjs <module url> <gguf> <prompt ids json> <decode tokens> <threads> [warm|cold]
// warm (bench:inference, the default): the median of RUNS answers after a warm-up.
// cold (bench:network's capped stage): one answer, no warm-up: under a memory cap the weights do
// not stay resident between answers, so a warm-up would only double the paging. The GGUF is
// memory-mapped (node-llama-cpp's default), so a cap makes the kernel page the weights from disk;
// /proc/self/io's read_bytes and the major faults over the measured answers show how much.
// Prints one JSON line (measure.mjs' report).
import { readFileSync } from 'node:fs';
import { median, report, rssBytes, RUNS } from './measure.mjs';

const [moduleUrl, gguf, promptFile, decodeArg, threadsArg, mode = 'warm'] = process.argv.slice(2);
if (mode !== 'warm' && mode !== 'cold') throw new Error(`llama-cpp-run: warm or cold, not "${mode}"`);
const cold = mode === 'cold';
const { getLlama } = await import(moduleUrl);
const prompt = JSON.parse(readFileSync(promptFile, 'utf8'));
const decodeTokens = Number(decodeArg);
const warmUps = cold ? 0 : 1;
const runs = cold ? 1 : RUNS;

/** Bytes this process made the disk read, and its major page faults (field 12 of /proc/self/stat). */
function io() {
  const readBytes = Number(/^read_bytes:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const majorFaults = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[9]);
  return { readBytes, majorFaults };
}

const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
const baseRssBytes = rssBytes();
const loadStarted = performance.now();
const model = await llama.loadModel({ modelPath: gguf, gpuLayers: 0 });
// The capped stage's 20-token prompt needs no larger batch, and a smaller one holds a smaller compute buffer under the cap.
const context = await model.createContext({ threads: Number(threadsArg), contextSize: 2048, batchSize: cold ? 512 : 1024 });
const loadMs = performance.now() - loadStarted;

const prefill = [];
const decode = [];
const firstToken = [];
let before;
for (let run = 0; run < warmUps + runs; run++) {
  if (run === warmUps) before = io();
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
  if (run < warmUps) continue;
  firstToken.push(firstAt - started);
  prefill.push((prompt.length / (firstAt - started)) * 1000);
  // Steps after the first token (fewer than asked if the model ended its answer).
  decode.push(((produced - 1) / (endedAt - firstAt)) * 1000);
}
const after = io();
report({
  loadMs,
  prefill,
  decode,
  baseRssBytes,
  firstTokenMs: median(firstToken),
  diskReadBytes: after.readBytes - before.readBytes,
  majorFaults: after.majorFaults - before.majorFaults,
});
await context.dispose();
await model.dispose();
