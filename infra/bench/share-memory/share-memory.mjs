#!/usr/bin/env node
// One device's memory while it serves some blocks of a package (issue 34's claim: peak RSS ≤
// 1.2 × the held blocks' weights + the fixed part), on the built desktop (`npm run build -w desktop`):
//   node infra/bench/share-memory/share-memory.mjs <package dir> <blocks, e.g. 0,1,2> [prompt tokens=32] [decode tokens=64]
// One process a measurement, so /proc's VmHWM is this share's peak alone. The runtime measures
// its speed on onnxruntime before it loads any block (as a host or member does), then loads the
// blocks, runs the prompt and the decode steps through them (token ids into block 0, a residual
// stream otherwise), and prints the share report's `memory`, the claim, and decode CPU time a token.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const dist = '../../../desktop/dist/desktop/src/runtime/network';
const { BlockWorker } = require(`${dist}/block-worker.js`);
const { memoryReport } = require(`${dist}/memory-report.js`);
const { measureSpeed } = require(`${dist}/node-report.js`);

const [directory, list, promptArg = '32', decodeArg = '64'] = process.argv.slice(2);
if (!directory || !list) throw new Error('Usage: share-memory.mjs <package dir> <blocks> [prompt tokens] [decode tokens]');
const blocks = list.split(',').map(Number);
const [prompt, decode] = [Number(promptArg), Number(decodeArg)];

await measureSpeed();
const worker = await BlockWorker.load(directory, 'measured', '1', blocks);
const [first, end] = [Math.min(...blocks), Math.max(...blocks) + 1];
const input = (tokens) =>
  first === 0
    ? BigInt64Array.from({ length: tokens }, (_, i) => BigInt(100 + ((i * 37) % 5000)))
    : Float32Array.from({ length: tokens * worker.manifest.hidden }, (_, i) => Math.sin(i) * 0.5);
await worker.forward(1, 0, first, end, input(prompt), prompt);
const cpu = process.cpuUsage();
for (let i = 0; i < decode; i++) await worker.forward(1, prompt + i, first, end, input(1), 1);
const used = process.cpuUsage(cpu);
const memory = memoryReport(worker);
const MB = (bytes) => Math.round(bytes / 1e5) / 10;
const claim = 1.2 * memory.weights_bytes + memory.fixed_bytes;
console.log(
  JSON.stringify({
    blocks: list,
    prompt,
    decode,
    decode_cpu_ms_per_token: Math.round((used.user + used.system) / decode / 10) / 100,
    rss_mb: MB(memory.rss_bytes),
    peak_rss_mb: MB(memory.peak_rss_bytes),
    weights_mb: MB(memory.weights_bytes),
    fixed_mb: MB(memory.fixed_bytes),
    cache_mb: MB(worker.cacheBytes),
    claim_mb: MB(claim),
    holds: memory.peak_rss_bytes <= claim,
  }),
);
await worker.close();
