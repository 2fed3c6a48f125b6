// Where a decode step's time goes, node by node: loads a package with onnxruntime's profiler on,
// prefills the prompt, decodes greedily, and sums the profile of the decode steps after the
// first (its warm-up) per kind of node: operator, input shapes and output shape (the shapes
// name the matrix: on the 8B shape K=4096 N=28672 is gate and up, K=14336 N=4096 is down).
//   node meshwork-profile.mjs <package dir> <prompt ids json> <decode tokens> <threads>
// Prints a table and, last, one JSON line with the same rows. `BENCH_PROFILE=1 npm run
// bench:inference` runs it after the timed runs (the profiler slows every node a little).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { LocalModel } = require('../../../desktop/dist/desktop/src/engine/local-model.js');
const { argmax } = require('../../../desktop/dist/desktop/src/engine/sampler.js');

const [dir, promptFile, decodeArg, threadsArg] = process.argv.slice(2);
const prompt = JSON.parse(fs.readFileSync(promptFile, 'utf8'));
const decodeTokens = Math.max(2, Number(decodeArg));
/** Prompt positions a run takes (LocalModel's own default, given so the runs can be counted). */
const PREFILL_CHUNK = 256;
const profiles = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-profile-'));

try {
  const model = await LocalModel.load(dir, {
    threads: Number(threadsArg),
    prefillChunk: PREFILL_CHUNK,
    profileFilePrefix: path.join(profiles, 'block'),
  });
  let logits = await model.forward(prompt);
  for (let i = 0; i < decodeTokens; i++) logits = await model.forward([argmax(logits)]);
  await model.endProfiling();
  await model.release();

  // Per block (a profile file each, its own clock): its first runs are the prefill, the next the
  // warm-up step; the runs after them and their nodes are measured.
  const skipped = Math.ceil(prompt.length / PREFILL_CHUNK) + 1;
  const measured = [];
  const nodes = [];
  for (const file of fs.readdirSync(profiles)) {
    const events = JSON.parse(fs.readFileSync(path.join(profiles, file), 'utf8'));
    const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').sort((a, b) => a.ts - b.ts);
    const from = runs[skipped].ts;
    measured.push(...runs.slice(skipped));
    nodes.push(...events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time') && e.ts >= from));
  }
  const steps = decodeTokens - 1;
  const shape = (entry) => {
    const [[type, dims]] = Object.entries(entry);
    return `${type}[${dims.join(',')}]`;
  };
  const groups = new Map();
  for (const e of nodes) {
    const inputs = (e.args.input_type_shape ?? []).map(shape).join(' ');
    const key = `${e.args.op_name} ${inputs} -> ${(e.args.output_type_shape ?? []).map(shape).join(' ')}`;
    const group = groups.get(key) ?? { key, op: e.args.op_name, count: 0, us: 0, parameterBytes: 0 };
    group.count++;
    group.us += e.dur;
    group.parameterBytes += Number(e.args.parameter_size ?? 0);
    groups.set(key, group);
  }
  const stepUs = measured.reduce((sum, r) => sum + r.dur, 0) / steps;
  const nodeUs = nodes.reduce((sum, e) => sum + e.dur, 0) / steps;
  const rows = [...groups.values()]
    .sort((a, b) => b.us - a.us)
    .map((g) => ({
      node: g.key,
      op: g.op,
      perStep: g.count / steps,
      msPerStep: g.us / steps / 1000,
      share: g.us / steps / stepUs,
      parameterMBPerStep: g.parameterBytes / steps / 1e6,
    }));
  const byOp = new Map();
  for (const r of rows) byOp.set(r.op, (byOp.get(r.op) ?? 0) + r.msPerStep);

  console.log(
    `${steps} decode steps profiled (after ${prompt.length} prompt tokens and one warm-up step), ${threadsArg} thread(s): a step ${(stepUs / 1000).toFixed(1)} ms, its nodes ${(nodeUs / 1000).toFixed(1)} ms`,
  );
  console.log('\nby operator (ms a step, share of the step):');
  for (const [op, ms] of [...byOp].sort((a, b) => b[1] - a[1]))
    console.log(`  ${op.padEnd(36)} ${ms.toFixed(2).padStart(8)} ms ${((100 * ms * 1000) / stepUs).toFixed(1).padStart(5)}%`);
  console.log('\nby node kind (operator, input shapes -> output shape), the heaviest first:');
  for (const r of rows.slice(0, 25))
    console.log(
      `  ${r.msPerStep.toFixed(2).padStart(8)} ms ${(100 * r.share).toFixed(1).padStart(5)}%  ×${String(r.perStep).padEnd(4)} ${r.parameterMBPerStep ? `${r.parameterMBPerStep.toFixed(0).padStart(5)} MB  ` : ''}${r.node}`,
    );
  console.log(JSON.stringify({ steps, stepMs: stepUs / 1000, nodeMs: nodeUs / 1000, rows }));
} finally {
  fs.rmSync(profiles, { recursive: true, force: true });
}
