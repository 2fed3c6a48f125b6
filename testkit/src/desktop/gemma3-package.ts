import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { packModel } from '../../../desktop/src/pack/packer';

/**
 * Packs the real Gemma 3 270M Q4_K_M (a base model: no chat template) into `out` as
 * `npm run model:pack` does by default, and answers the package's file paths. `npm test` fetches
 * the GGUF (MESHWORK_GEMMA3_GGUF); the package is about 336 MB, so a test packs it once.
 */
export async function packGemma3(out: string, blocks = 1): Promise<string[]> {
  const gguf = process.env.MESHWORK_GEMMA3_GGUF;
  if (!gguf) throw new Error('MESHWORK_GEMMA3_GGUF is not set: `npm test` fetches the model (node infra/scripts/infra.mjs env)');
  await packModel({ gguf, out, blocks });
  return (await readdir(out)).sort().map((name) => join(out, name));
}
