/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * The packer and runtime on a tiny random llama, for every weight type: the packed ONNX blocks
 * must compute what a plain float64 forward pass over the dequantised weights computes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalModel } from '../engine/local-model';
import { readGguf } from './gguf';
import { modelConfig } from './model-config';
import { packModel } from './packer';
import { GgmlType } from './quant';
import { dequantizeAll, referenceLogits } from './testing/reference-llama';
import type { MetaValue } from '@meshwork/testkit/desktop/tiny-gguf';
import { tinyLlamaGguf } from '@meshwork/testkit/desktop/tiny-llama';

const PROMPT = [258, 72, 101, 108, 108, 111, 44, 32, 119, 111, 114, 108, 100];

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'packer-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function packed(name: string, gguf: Buffer, blocks: number, activations: 'fp32' | 'int8') {
  const path = join(work, `${name}.gguf`);
  await writeFile(path, gguf);
  const out = join(work, `${name}-${blocks}-${activations}`);
  const manifest = await packModel({ gguf: path, out, blocks, activations });
  const file = await readGguf(path);
  return { manifest, model: await LocalModel.load(out), expected: referenceLogits(await dequantizeAll(file), modelConfig(file), PROMPT) };
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

const TYPES = { F32: GgmlType.F32, F16: GgmlType.F16, Q4_0: GgmlType.Q4_0, Q4_1: GgmlType.Q4_1, Q8_0: GgmlType.Q8_0 };

describe('packing a llama GGUF into ONNX blocks', () => {
  for (const [label, type] of Object.entries(TYPES)) {
    it(`${label} weights: 1 and 2 blocks with fp32 activations compute the reference logits`, async () => {
      const gguf = tinyLlamaGguf({ matrices: type, seed: type + 1 });
      for (const blocks of [1, 2]) {
        const { manifest, model, expected } = await packed(label, gguf, blocks, 'fp32');
        expect(manifest.blocks).toHaveLength(blocks);
        const logits = await model.forward(PROMPT);
        await model.release();
        expect(logits).toHaveLength(260);
        expect(maxDifference(logits, expected)).toBeLessThan(2e-3);
      }
    });
  }

  it('an untied output head and a Q8_0 embedding under Q4_1 matrices', async () => {
    const { model, expected } = await packed(
      'untied',
      tinyLlamaGguf({ matrices: GgmlType.Q4_1, embedding: GgmlType.Q8_0, tied: false }),
      2,
      'fp32',
    );
    expect(maxDifference(await model.forward(PROMPT), expected)).toBeLessThan(2e-3);
    await model.release();
  });

  it('int8 activations stay close to the reference (within 3% of the logits’ range)', async () => {
    for (const type of [GgmlType.Q4_0, GgmlType.Q4_1, GgmlType.Q8_0]) {
      const { model, expected } = await packed(`int8-${type}`, tinyLlamaGguf({ matrices: type }), 1, 'int8');
      const logits = await model.forward(PROMPT);
      await model.release();
      const range = Math.max(...expected) - Math.min(...expected);
      expect(maxDifference(logits, expected) / range).toBeLessThan(0.03);
    }
  });

  it('the key/value cache: a prefill then one token at a time equals one long prefill', async () => {
    const { model } = await packed('kv', tinyLlamaGguf({ matrices: GgmlType.Q4_1 }), 2, 'fp32');
    const once = await model.forward(PROMPT);
    model.truncate(0);
    await model.forward(PROMPT.slice(0, 5));
    let last: Float32Array = new Float32Array();
    for (const id of PROMPT.slice(5)) last = await model.forward([id]);
    expect(model.length).toBe(PROMPT.length);
    expect(maxDifference(once, last)).toBeLessThan(1e-4);
    // A new conversation after truncating answers as the first did.
    model.truncate(0);
    expect(maxDifference(await model.forward(PROMPT), once)).toBeLessThan(1e-5);
    await model.release();
    // A prompt read in runs of 4 positions (long prompts are, in runs of 256) gives the same logits.
    const chunked = await LocalModel.load(join(work, 'kv-2-fp32'), { prefillChunk: 4 });
    expect(maxDifference(await chunked.forward(PROMPT), once)).toBeLessThan(1e-4);
    expect(chunked.length).toBe(PROMPT.length);
    // The tiny model reads 64 positions: one more is refused before anything runs.
    await expect(chunked.forward(new Array<number>(64 - PROMPT.length + 1).fill(72))).rejects.toThrow('this model reads at most 64');
    expect(chunked.length).toBe(PROMPT.length);
    await chunked.release();
  });

  it('packs exact fp32 activations by default, named and with the sampling its metadata states', async () => {
    const path = join(work, 'SmolTiny-1M-Chat.Q4_1.gguf');
    const metadata: Record<string, MetaValue> = {
      'general.basename': { type: 'string', value: 'smoltiny' },
      'general.size_label': { type: 'string', value: '1M' },
      'general.sampling.temp': { type: 'f32', value: 0.3 },
      'general.sampling.penalty_repeat': { type: 'f32', value: 1.2 },
    };
    await writeFile(path, tinyLlamaGguf({ matrices: GgmlType.Q4_1, metadata }));
    const out = join(work, 'default');
    const steps: string[] = [];
    const manifest = await packModel({ gguf: path, out, blocks: 2, progress: (update) => steps.push(update.step) });
    expect(manifest).toMatchObject({ name: 'SmolTiny 1M Chat', activations: 'fp32', generation: { temperature: 0.3, repeatPenalty: 1.2 } });
    expect(steps).toContain('block 2 of 2: read layer 3 of 3');
    const model = await LocalModel.load(out);
    const file = await readGguf(path);
    const expected = referenceLogits(await dequantizeAll(file), modelConfig(file), PROMPT);
    expect(maxDifference(await model.forward(PROMPT), expected)).toBeLessThan(2e-3);
    await model.release();
  });

  it('refuses a non-empty output directory and more blocks than layers', async () => {
    const path = join(work, 'refuse.gguf');
    await writeFile(path, tinyLlamaGguf({ matrices: GgmlType.Q4_0 }));
    await expect(packModel({ gguf: path, out: work, blocks: 1 })).rejects.toThrow(`The output directory ${work} is not empty`);
    await expect(packModel({ gguf: path, out: join(work, 'four'), blocks: 4 })).rejects.toThrow(
      'A model of 3 layers splits into at most 3 blocks',
    );
  });
});
