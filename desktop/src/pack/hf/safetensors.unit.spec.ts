import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSafetensorsHeader, readSafetensorsValues } from './safetensors';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'safetensors-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A safetensors file with `header` as its JSON and `data` after it. */
async function file(name: string, header: unknown, data: Buffer): Promise<string> {
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  const path = join(work, name);
  await writeFile(path, Buffer.concat([length, json, data]));
  return path;
}

describe('safetensors', () => {
  it('reads F32, F16 and BF16 tensors as float32, at their offsets', async () => {
    const f32 = Buffer.alloc(8);
    f32.writeFloatLE(1.5, 0);
    f32.writeFloatLE(-3.25, 4);
    const f16 = Buffer.from([0x00, 0x3e, 0x00, 0xc4]); // 1.5, -4
    const bf16 = Buffer.from([0xc0, 0x3f, 0x50, 0xc0]); // 1.5, -3.25
    const path = await file(
      'types.safetensors',
      {
        __metadata__: { format: 'pt' },
        a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] },
        b: { dtype: 'F16', shape: [1, 2], data_offsets: [8, 12] },
        c: { dtype: 'BF16', shape: [2], data_offsets: [12, 16] },
      },
      Buffer.concat([f32, f16, bf16]),
    );
    const tensors = await readSafetensorsHeader(path);
    expect(tensors.map((t) => [t.name, t.dtype, t.shape])).toEqual([
      ['a', 'F32', [2]],
      ['b', 'F16', [1, 2]],
      ['c', 'BF16', [2]],
    ]);
    expect(tensors.map((t) => Array.from(readSafetensorsValues(t)))).toEqual([
      [1.5, -3.25],
      [1.5, -4],
      [1.5, -3.25],
    ]);
  });

  it.each([
    [
      'an unknown dtype',
      { a: { dtype: 'I64', shape: [1], data_offsets: [0, 8] } },
      'tensor a has dtype I64 (Meshwork reads F32, F16, BF16)',
    ],
    [
      'a shape that does not fill its bytes',
      { a: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } },
      "tensor a's shape [3] of F32 does not fill its 8 bytes",
    ],
    ['a range past the end', { a: { dtype: 'F32', shape: [4], data_offsets: [0, 16] } }, 'tensor a runs past the end of the file'],
    [
      'overlapping ranges',
      { a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, b: { dtype: 'F16', shape: [2], data_offsets: [4, 8] } },
      'tensors a and b overlap',
    ],
    ['negative offsets', { a: { dtype: 'F32', shape: [1], data_offsets: [-4, 0] } }, 'tensor a has data_offsets [-4,0]'],
  ])('refuses %s, naming the tensor', async (_, header, message) => {
    const path = await file('bad.safetensors', header, Buffer.alloc(8));
    await expect(readSafetensorsHeader(path)).rejects.toThrow(`${path} is not a valid safetensors file: ${message}`);
  });

  it('refuses a header length beyond the file, and a header that is not JSON', async () => {
    const path = join(work, 'length.safetensors');
    const bytes = Buffer.alloc(16);
    bytes.writeBigUInt64LE(0xffffffffffffffffn, 0);
    await writeFile(path, bytes);
    await expect(readSafetensorsHeader(path)).rejects.toThrow('its header length 18446744073709551615 runs past the file or is absurd');
    bytes.writeBigUInt64LE(8n, 0);
    await writeFile(path, bytes);
    await expect(readSafetensorsHeader(path)).rejects.toThrow('its header is not JSON');
  });
});
