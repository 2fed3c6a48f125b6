// llama.cpp (node-llama-cpp's prebuilt CPU binary) as one device of bench:network's capped stage:
//   node llama-cpp-decode.mjs <module url> <gguf> <prompt ids json> <decode tokens> <threads>
// Prints one JSON line. No warm-up answer, unlike the inference benchmark's runner: under a
// memory cap the weights do not stay resident between answers, so a warm-up would only double
// the paging. The GGUF is memory-mapped (node-llama-cpp's default), so the cap makes the kernel
// page the weights from disk; /proc/self/io's read_bytes and the major faults show how much.
import { readFileSync } from 'node:fs';
import { peakRssBytes } from '../inference/measure.mjs';

const [moduleUrl, gguf, promptFile, decodeArg, threadsArg] = process.argv.slice(2);
const { getLlama } = await import(moduleUrl);
const prompt = JSON.parse(readFileSync(promptFile, 'utf8'));
const decodeTokens = Number(decodeArg);

/** Bytes this process made the disk read, and its major page faults (field 12 of /proc/self/stat). */
function io() {
  const readBytes = Number(/^read_bytes:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const majorFaults = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[9]);
  return { readBytes, majorFaults };
}

const started = performance.now();
const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
const model = await llama.loadModel({ modelPath: gguf, gpuLayers: 0 });
const context = await model.createContext({ threads: Number(threadsArg), contextSize: 2048, batchSize: 512 });
const loadMs = performance.now() - started;
const before = io();
const sequence = context.getSequence();
const askedAt = performance.now();
let firstAt = 0;
let produced = 0;
const tokens = sequence.evaluate(prompt, { temperature: 0 });
// The first token arrives once the prompt is evaluated; each later one is one decode step.
while (!(await tokens.next()).done) {
  if (produced === 0) firstAt = performance.now();
  if (++produced > decodeTokens) break;
}
await tokens.return?.();
const endedAt = performance.now();
const after = io();
console.log(
  JSON.stringify({
    loadMs,
    firstTokenMs: firstAt - askedAt,
    decodeTokens: produced - 1,
    decodeTokensPerSecond: ((produced - 1) / (endedAt - firstAt)) * 1000,
    peakRssBytes: peakRssBytes(),
    diskReadBytes: after.readBytes - before.readBytes,
    majorFaults: after.majorFaults - before.majorFaults,
  }),
);
await context.dispose();
await model.dispose();
