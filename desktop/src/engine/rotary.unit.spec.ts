import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelPackageManifest } from '@meshwork/contracts';
import { readManifest } from './local-model';
import { RotaryTables, rotaryTables } from './rotary';

/** A one-block manifest of the given format, otherwise valid. */
function manifest(extra: Record<string, unknown>): Record<string, unknown> {
  const hash = 'a'.repeat(64);
  return {
    format: 'meshwork-model/2',
    name: 'Tiny',
    version: '1.0.0',
    architecture: 'llama',
    contextLength: 1000,
    layers: 1,
    hidden: 8,
    heads: 1,
    kvHeads: 1,
    headDim: 8,
    vocabSize: 10,
    activations: 'fp32',
    tokenizer: 'tokenizer.json',
    chatTemplate: '',
    specialTokens: { eos: 1, stop: [1] },
    kvBytesPerToken: 64,
    rotary: [{ base: 10000, scale: 1 }],
    blocks: [
      {
        index: 0,
        file: 'block-0.onnx',
        layers: [0, 1],
        sha256: hash,
        bytes: 1,
        weights: { file: 'block-0.bin', sha256: hash, bytes: 1 },
        memoryBytes: 1,
        input: 'input_ids',
        output: 'logits',
      },
    ],
    ...extra,
  };
}

describe('rotary tables made by the host', () => {
  it('grown run by run, they equal the tables made at once, and follow the rope formula', () => {
    const factors = [1, 2, 4, 8];
    const tables = new RotaryTables(ModelPackageManifest.parse(manifest({ ropeFactors: factors })));
    const [smallCos] = tables.covering(0, 10);
    expect(smallCos.dims).toEqual([256, 4]); // grown in steps, like the key/value cache
    const [cos, sin] = tables.covering(0, 700);
    expect(cos.dims).toEqual([700, 4]);
    const once = rotaryTables(700, 8, { base: 10000, scale: 1, factors });
    expect(cos.data).toEqual(once.cos);
    expect(sin.data).toEqual(once.sin);
    // Position 300, pair 1: angle 300 · 10000^(-2/8) / 2.
    expect((cos.data as Float32Array)[300 * 4 + 1]).toBeCloseTo(Math.cos((300 * Math.pow(10000, -0.25)) / 2), 6);
    // By a quarter at a time, never past the context length.
    expect(tables.covering(0, 701)[0].dims).toEqual([875, 4]);
    expect(tables.covering(0, 876)[0].dims).toEqual([1000, 4]);
    expect(() => tables.covering(1, 10)).toThrow('repack the model');
  });

  it('model.json: format 1 (tables stored) still reads; format 2 must describe its tables; a newer format says to update', async () => {
    const work = await mkdtemp(join(tmpdir(), 'manifest-'));
    try {
      const read = async (json: Record<string, unknown>) => {
        await writeFile(join(work, 'model.json'), JSON.stringify(json));
        return readManifest(work);
      };
      await expect(read(manifest({ format: 'meshwork-model/1', rotary: undefined }))).resolves.toMatchObject({
        format: 'meshwork-model/1',
      });
      await expect(read(manifest({ rotary: undefined }))).rejects.toThrow('A format 2 package describes its rotary tables');
      await expect(read(manifest({ ropeFactors: [1, 2] }))).rejects.toThrow('The rotary factors do not fit the head size');
      await expect(read(manifest({ format: 'meshwork-model/3' }))).rejects.toThrow(
        'model.json is a package of format 3; this Meshwork reads formats 1 and 2: update Meshwork',
      );
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
