import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGguf } from './gguf';
import { displayName, generationDefaults } from './model-metadata';
import { writeGguf, type MetaValue } from '@meshwork/testkit/desktop/tiny-gguf';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'model-metadata-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const text = (value: string): MetaValue => ({ type: 'string', value });
const f32 = (value: number): MetaValue => ({ type: 'f32', value });

/** A GGUF holding only `metadata`, under `fileName`: what the packer reads these facts from. */
async function gguf(fileName: string, metadata: Record<string, MetaValue>) {
  const path = join(work, fileName);
  await writeFile(path, writeGguf(metadata, []));
  return readGguf(path);
}

/** SmolLM2-135M-Instruct's own metadata, as infra's GGUF holds it. */
const SMOLLM2 = {
  'general.name': text('Smollm2 135M 8k Lc100K Mix1 Ep2'),
  'general.basename': text('smollm2'),
  'general.finetune': text('8k-lc100k-mix1-ep2'),
  'general.size_label': text('135M'),
};

describe('the name people see', () => {
  it('a file named by llama.cpp’s convention keeps its casing and fine-tune: "SmolLM2 135M Instruct"', async () => {
    expect(displayName(await gguf('SmolLM2-135M-Instruct.Q4_1.gguf', SMOLLM2))).toBe('SmolLM2 135M Instruct');
    expect(displayName(await gguf('SmolLM2-135M-Instruct-Q4_K_M.gguf', SMOLLM2))).toBe('SmolLM2 135M Instruct');
    const llama = { 'general.basename': text('Llama-3.2'), 'general.size_label': text('1B'), 'general.finetune': text('Instruct') };
    expect(displayName(await gguf('Llama-3.2-1B-Instruct-f16.gguf', llama))).toBe('Llama 3.2 1B Instruct');
  });

  it('a file named otherwise: base name, size, fine-tune and version from the metadata', async () => {
    expect(displayName(await gguf('model.gguf', SMOLLM2))).toBe('Smollm2 135M 8k lc100k mix1 ep2');
    const stated = { 'general.basename': text('Qwen2.5'), 'general.size_label': text('0.5B'), 'general.version': text('v2') };
    expect(displayName(await gguf('download (1).gguf', stated))).toBe('Qwen2.5 0.5B v2');
  });

  it('without a base name, general.name; without either, the file’s name', async () => {
    expect(displayName(await gguf('a.gguf', { 'general.name': text('  Tiny Llama  ') }))).toBe('Tiny Llama');
    expect(displayName(await gguf('my-model.Q8_0.gguf', {}))).toBe('my model');
  });
});

describe('the sampling the model’s authors recommend', () => {
  it('reads llama.cpp’s general.sampling keys, with the digits written rather than float32’s', async () => {
    const file = await gguf('s.gguf', {
      'general.sampling.temp': f32(0.2),
      'general.sampling.top_p': f32(0.95),
      'general.sampling.top_k': { type: 'i32', value: 20 },
      'general.sampling.penalty_repeat': f32(1.05),
      'general.sampling.penalty_last_n': { type: 'u32', value: 128 },
    });
    expect(generationDefaults(file)).toEqual({ temperature: 0.2, topP: 0.95, topK: 20, repeatPenalty: 1.05, repeatLastN: 128 });
    expect(generationDefaults(await gguf('one.gguf', { 'general.sampling.temp': f32(0.6) }))).toEqual({ temperature: 0.6 });
  });

  it('states none for a file that has none, and refuses one no sampler takes by its key', async () => {
    expect(generationDefaults(await gguf('none.gguf', SMOLLM2))).toBeUndefined();
    await expect(gguf('bad.gguf', { 'general.sampling.top_p': f32(1.5) }).then(generationDefaults)).rejects.toThrow(
      "The model's general.sampling.top_p is 1.5, which no sampler takes",
    );
    await expect(gguf('text.gguf', { 'general.sampling.temp': text('warm') }).then(generationDefaults)).rejects.toThrow(
      "The model's general.sampling.temp is not a number",
    );
  });
});
