// One pack in a process of its own, so its peak RSS is the packer's alone:
// `node pack-run.mjs <gguf> <out> <blocks> <activations>` prints one JSON line.
import { createRequire } from 'node:module';
import { peakRssBytes, rssBytes } from '../inference/measure.mjs';

const require = createRequire(import.meta.url);
const { packModel } = require('../../../desktop/dist/desktop/src/pack/packer.js');

const [gguf, out, blocks, activations] = process.argv.slice(2);
const baseRssBytes = rssBytes();
const started = performance.now();
await packModel({ gguf, out, blocks: Number(blocks), activations });
console.log(JSON.stringify({ ms: performance.now() - started, peakRssBytes: peakRssBytes(), baseRssBytes }));
