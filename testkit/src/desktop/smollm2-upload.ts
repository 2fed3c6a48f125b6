import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NetworksWorld } from '../api/network-kit';
import { packModel } from '../../../desktop/src/pack/packer';
import { uploadPackage } from './package-upload';

/** The chat the golden answer comes from: SmolLM2's own system prompt and one question. */
export const CAPITAL_OF_FRANCE = [
  { role: 'system' as const, content: 'You are a helpful AI assistant named SmolLM, trained by Hugging Face' },
  { role: 'user' as const, content: 'What is the capital of France?' },
];

/**
 * Packs the real SmolLM2 as `npm run model:pack` does by default (one block unless told; int8
 * activations only when asked) and uploads it as staff would, for the plans given, under a fresh
 * name. `npm test` fetches the GGUF (MESHWORK_SMOLLM2_GGUF).
 */
export async function uploadSmolLM2(
  world: Pick<NetworksWorld, 'upload'>,
  plans: string[],
  blocks = 1,
  activations?: 'fp32' | 'int8',
): Promise<{ name: string; id: string }> {
  const gguf = process.env.MESHWORK_SMOLLM2_GGUF;
  if (!gguf) throw new Error('MESHWORK_SMOLLM2_GGUF is not set: `npm test` fetches the model (node infra/scripts/infra.mjs model)');
  const work = await mkdtemp(join(tmpdir(), 'smollm2-package-'));
  try {
    await packModel({ gguf, out: work, blocks, activations });
    const { name, id } = await uploadPackage(world, work, { stem: 'smollm2', displayName: 'SmolLM2 135M Instruct', plans });
    return { name, id };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
