/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * A Hugging Face folder packs into the same model as the GGUF llama.cpp's converter would make
 * of it: each architecture's synthetic F32 GGUF is written again as an HF checkpoint in HF's own
 * names and layouts (llama's q/k halves, Gemma's norms as w, Phi-3's fused tensors, shards with an
 * index), both are packed and run by our engine on the same tokens, and every logit must agree.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenizerJson } from '@meshwork/contracts';
import { LocalModel } from '../../engine/local-model';
import { seededRandom } from '../../engine/sampler';
import { packModel } from '../packer';
import { GgmlType } from '../quant';
import { readHfFolder } from './hf-folder';
import { writeHfCheckpoint } from '@meshwork/testkit/desktop/hf-checkpoint';
import { syntheticGguf, type SyntheticModel } from '@meshwork/testkit/desktop/synthetic-models';

/** More than the synthetic Gemma's sliding window of 32, so both kinds of layer are crossed. */
const POSITIONS = 40;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hf-folder-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Every logit after each position, one position a pass. */
async function logits(directory: string, tokens: readonly number[]): Promise<Float32Array[]> {
  const model = await LocalModel.load(directory);
  try {
    const out: Float32Array[] = [];
    for (const token of tokens) out.push(Float32Array.from(await model.forward([token])));
    return out;
  } finally {
    await model.release();
  }
}

function largestDifference(a: Float32Array[], b: Float32Array[]): { difference: number; position: number } {
  let worst = { difference: 0, position: -1 };
  for (const [position, row] of a.entries()) {
    if (row.length !== b[position]!.length) return { difference: Infinity, position };
    for (const [i, value] of row.entries()) {
      const difference = Math.abs(value - b[position]![i]!);
      if (!(difference <= worst.difference)) worst = { difference, position };
    }
  }
  return worst;
}

/** The synthetic model as a GGUF of `type` and as an HF folder made from its F32 weights. */
async function bothForms(model: SyntheticModel, type: GgmlType): Promise<{ gguf: string; folder: string }> {
  const gguf = join(work, `${model}-${GgmlType[type]}.gguf`);
  await writeFile(gguf, syntheticGguf(model, type));
  const f32 = join(work, `${model}-F32.gguf`);
  if (type !== GgmlType.F32) await writeFile(f32, syntheticGguf(model, GgmlType.F32));
  const folder = join(work, `${model}-hf`);
  await mkdir(folder, { recursive: true });
  if ((await readdir(folder)).length === 0) await writeHfCheckpoint(f32, folder, 2);
  return { gguf, folder };
}

const tokens = (() => {
  const random = seededRandom(11);
  return Array.from({ length: POSITIONS }, () => Math.floor(random() * 512));
})();

describe.each(['llama', 'mistral', 'qwen2', 'qwen3', 'gemma2', 'gemma3', 'phi3'] as const)('%s as a Hugging Face folder', (model) => {
  it('packs into the model its F32 GGUF packs into: the same tokenizer, and every logit within 1e-4', async () => {
    const { gguf, folder } = await bothForms(model, GgmlType.F32);
    const fromGguf = await packModel({ gguf, out: join(work, `${model}-from-gguf`), blocks: 2 });
    const fromHf = await packModel({ gguf: await readHfFolder(folder), out: join(work, `${model}-from-hf`), blocks: 2 });
    expect(fromHf).toMatchObject({ name: `${model}-hf`, architecture: fromGguf.architecture, specialTokens: fromGguf.specialTokens });
    const [hfTokenizer, ggufTokenizer] = await Promise.all(
      [`${model}-from-hf`, `${model}-from-gguf`].map(
        async (name) => JSON.parse(await readFile(join(work, name, 'tokenizer.json'), 'utf8')) as TokenizerJson,
      ),
    );
    // A SentencePiece tokenizer.json carries merges, not the pieces' scores: those are remade from the merges.
    if (model === 'phi3') expect({ ...hfTokenizer, scores: [] }).toEqual({ ...ggufTokenizer, scores: [] });
    else expect(hfTokenizer).toEqual(ggufTokenizer);
    const { difference, position } = largestDifference(
      await logits(join(work, `${model}-from-hf`), tokens),
      await logits(join(work, `${model}-from-gguf`), tokens),
    );
    if (difference > 1e-4) throw new Error(`logits differ by ${difference} at position ${position}`);
  }, 60_000);
});

describe('quantised while packing', () => {
  // Measured on qwen2 over 40 positions (logits up to 68): q8 moves them by at most 0.17 (0.25%),
  // q4 by at most 3.2 (4.8%); both keep the F32 model's first choice at every position.
  it.each([
    { quant: 'q8', type: GgmlType.Q8_0, bound: 0.005 },
    { quant: 'q4', type: GgmlType.Q4_0, bound: 0.1 },
  ] as const)(
    '--quant $quant makes the blocks ggml makes (within 1e-4 of the GGUF llama.cpp would quantise); the logits move by under $bound of their largest',
    async ({ quant, type, bound }) => {
      const { gguf, folder } = await bothForms('qwen2', type);
      await packModel({ gguf, out: join(work, `${quant}-from-gguf`), blocks: 1 });
      await packModel({ gguf: await readHfFolder(folder, quant), out: join(work, `${quant}-from-hf`), blocks: 1 });
      const ours = await logits(join(work, `${quant}-from-hf`), tokens);
      const sameBlocks = largestDifference(ours, await logits(join(work, `${quant}-from-gguf`), tokens));
      if (sameBlocks.difference > 1e-4) throw new Error(`logits differ from the ${GgmlType[type]} GGUF's by ${sameBlocks.difference}`);

      const f32 = join(work, `${quant}-reference-f32`);
      await packModel({ gguf: join(work, 'qwen2-F32.gguf'), out: f32, blocks: 1 });
      const reference = await logits(f32, tokens);
      const { difference } = largestDifference(ours, reference);
      const scale = Math.max(...reference.map((row) => Math.max(...row.map(Math.abs))));
      expect(difference).toBeGreaterThan(0);
      if (!(difference < bound * scale)) throw new Error(`logits differ from the F32 GGUF's by ${difference} (largest logit ${scale})`);
    },
    60_000,
  );
});

describe('refusals', () => {
  it('refuses a shard whose safetensors header is corrupt, naming the file and what is wrong', async () => {
    const { folder } = await bothForms('llama', GgmlType.F32);
    const corrupt = join(work, 'corrupt-hf');
    await mkdir(corrupt);
    for (const name of await readdir(folder)) await copyFile(join(folder, name), join(corrupt, name));
    const shard = join(corrupt, 'model-00002-of-00002.safetensors');
    const bytes = await readFile(shard);
    bytes.writeBigUInt64LE(1n << 40n, 0);
    await writeFile(shard, bytes);
    await expect(readHfFolder(corrupt)).rejects.toThrow(`${shard} is not a valid safetensors file: its header length 1099511627776`);
  });

  it('refuses an architecture it does not take, listing those it does', async () => {
    const folder = join(work, 'mamba-hf');
    await mkdir(folder);
    await writeFile(join(folder, 'config.json'), JSON.stringify({ architectures: ['MambaForCausalLM'], model_type: 'mamba' }));
    await expect(readHfFolder(folder)).rejects.toThrow(
      'Models of architecture "MambaForCausalLM" / "mamba" cannot be packed; supported: llama, qwen2, qwen3, gemma2, gemma3, phi3',
    );
  });
});
