#!/usr/bin/env node
// Tokenizer benchmark: `npm run bench:tokenizer` (builds the desktop engine first).
//
// On the real SmolLM2 vocabulary (the GGUF fetched by infra), tokenises 1 MB of each text and
// prints the time (the best of 3, no piece cached) against 1 MB of ordinary English prose in the same run:
// one word without spaces (a long word repeated, and one letter repeated), repeated emoji, one
// digit run, one whitespace run. Target: under 1 s each (issue 31: the merge rescan it replaced
// took 49 s for 64 KB). Then the same word through `encodeAsync`, as the host tokenises a long
// prompt: its time, and the longest the event loop waited meanwhile (it should stay free).
// Prints one line per figure with its target; exits 0 on a MISS (it is a report), 1 if it broke.
import { createRequire } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { smollm2Gguf } from '../lib/model.mjs';
import { runBenchmark } from './run-benchmark.mjs';

const require = createRequire(import.meta.url);
const dist = '../../desktop/dist/desktop/src';
const { readGguf } = require(`${dist}/pack/gguf.js`);
const { tokenizerJson } = require(`${dist}/pack/tokenizer-json.js`);
const { Tokenizer } = require(`${dist}/engine/tokenizer/tokenizer.js`);

const SIZE = 1_000_000;
const TARGET_MS = 1000;
const RUNS = 3;

const fill = (unit) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
const english = readFileSync(path.join(import.meta.dirname, '../../desktop/src/engine/testing/english.txt'), 'utf8');
// Emoji are two UTF-16 units: cut on a whole one.
const emoji = '🎉'.repeat(SIZE / 2);

const TEXTS = [
  ['English prose (the baseline)', fill(english)],
  ['one word, no spaces', fill('supercalifragilisticexpialidocious')],
  ['one letter repeated', fill('a')],
  ['repeated emoji', emoji],
  ['one digit run', fill('1234567890')],
  ['one whitespace run', fill(' ') + 'x'],
];

/** The best of RUNS, each on a tokenizer of its own: no piece cached by an earlier run. */
function best(json, text) {
  let fastest = Infinity;
  let ids = 0;
  for (let run = 0; run < RUNS; run++) {
    const tokenizer = Tokenizer.fromJson(json);
    const start = performance.now();
    ids = tokenizer.encode(text).length;
    fastest = Math.min(fastest, performance.now() - start);
  }
  return { ms: fastest, ids };
}

async function main() {
  const json = tokenizerJson(await readGguf(await smollm2Gguf()));
  console.log(`SmolLM2 vocabulary, ${SIZE.toLocaleString('en')} characters each, best of ${RUNS}\n`);
  console.log(`${'text'.padEnd(30)} ${'ms'.padStart(7)} ${'ids'.padStart(10)} ${'× prose'.padStart(8)}   target`);
  let baseline;
  for (const [name, text] of TEXTS) {
    const { ms, ids } = best(json, text);
    baseline ??= ms;
    const verdict = ms < TARGET_MS ? 'met' : 'NOT met';
    console.log(
      `${name.padEnd(30)} ${ms.toFixed(0).padStart(7)} ${ids.toLocaleString('en').padStart(10)} ${(ms / baseline).toFixed(2).padStart(7)}x   < ${TARGET_MS} ms  ${verdict}`,
    );
  }

  // The host's path: a worker thread (started by the first long text, so the first run counts it).
  const tokenizer = Tokenizer.fromJson(json);
  const word = TEXTS[1][1];
  const delay = monitorEventLoopDelay({ resolution: 10 });
  for (let run = 0; run < RUNS; run++) {
    delay.reset();
    delay.enable();
    const start = performance.now();
    await tokenizer.encodeAsync(word);
    const ms = performance.now() - start;
    delay.disable();
    console.log(
      `\nencodeAsync, one word (run ${run + 1}${run === 0 ? ', thread start included' : ''}): ${ms.toFixed(0)} ms; ` +
        `longest event-loop wait meanwhile ${(delay.max / 1e6).toFixed(0)} ms (target < 100 ms)`,
    );
  }
  await tokenizer.close();
}

await runBenchmark(main, async () => undefined, 'nothing to undo');
