import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metaArray, metaNumber, metaString, readGguf, readTensorBytes } from './gguf';
import { dequantize, GgmlType } from './quant';
import { writeGguf, type MetaValue } from '@meshwork/testkit/desktop/tiny-gguf';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'gguf-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function fileOf(bytes: Buffer, name = 'model.gguf'): Promise<string> {
  const path = join(work, name);
  await writeFile(path, bytes);
  return path;
}

const METADATA: Record<string, MetaValue> = {
  'a.u8': { type: 'u8', value: 200 },
  'a.i8': { type: 'i8', value: -5 },
  'a.u16': { type: 'u16', value: 60_000 },
  'a.i16': { type: 'i16', value: -30_000 },
  'a.u32': { type: 'u32', value: 4_000_000_000 },
  'a.i32': { type: 'i32', value: -2_000_000_000 },
  'a.f32': { type: 'f32', value: 0.5 },
  'a.f64': { type: 'f64', value: Math.PI },
  'a.u64': { type: 'u64', value: 2n ** 63n },
  'a.i64': { type: 'i64', value: -(2n ** 40n) },
  'a.bool': { type: 'bool', value: true },
  'a.string': { type: 'string', value: 'héllo <|im_end|>' },
  'a.strings': { type: 'array', itemType: 'string', value: ['Ġ t', 'i n', ''] },
  'a.ints': { type: 'array', itemType: 'i32', value: [1, -2, 3] },
};

describe('reading GGUF', () => {
  it('reads metadata of every type and tensors at aligned offsets', async () => {
    const weights = Float32Array.from({ length: 64 }, (_, i) => i / 8 - 4);
    const path = await fileOf(
      writeGguf(
        METADATA,
        [
          { name: 'v', dims: [3], type: GgmlType.F32, data: Float32Array.of(1, 2, 3) },
          { name: 'm', dims: [32, 2], type: GgmlType.Q8_0, data: weights },
        ],
        64,
      ),
    );
    const file = await readGguf(path);
    expect(file.version).toBe(3);
    const expected = Object.fromEntries(Object.entries(METADATA).map(([k, v]) => [k, v.value]));
    expect(Object.fromEntries(file.metadata)).toEqual({ ...expected, 'general.alignment': 64 });
    expect(file.alignment).toBe(64);
    const m = file.tensors.get('m')!;
    expect(m).toMatchObject({ dims: [32, 2], type: GgmlType.Q8_0, byteLength: 68 });
    expect((m.offset - file.dataOffset) % 64).toBe(0);
    expect(Array.from(dequantize(GgmlType.F32, await readTensorBytes(file, file.tensors.get('v')!), 3))).toEqual([1, 2, 3]);
    const back = dequantize(m.type, await readTensorBytes(file, m), 64);
    for (let i = 0; i < 64; i++) expect(Math.abs(back[i]! - weights[i]!)).toBeLessThan(4 / 127);
    expect(metaString(file, 'a.string')).toBe('héllo <|im_end|>');
    expect(() => metaNumber(file, 'a.u64')).toThrow("The model's a.u64 is not a number"); // 2^63 is past exact
    expect((await readGguf(await fileOf(writeGguf(METADATA, []), 'default.gguf'))).alignment).toBe(32);
  });

  it('the metadata helpers name a missing or mistyped key', async () => {
    const file = await readGguf(await fileOf(writeGguf(METADATA, [])));
    expect(() => metaString(file, 'missing.key')).toThrow("The model's metadata has no missing.key");
    expect(() => metaNumber(file, 'a.string')).toThrow("The model's a.string is not a number");
    expect(() => metaArray(file, 'a.u8')).toThrow("The model's a.u8 is not a list");
    expect(metaNumber(file, 'a.i64')).toBe(-(2 ** 40));
  });

  it('refuses files that are not GGUF, cut short, or lie about their sizes', async () => {
    const good = writeGguf({ 'a.string': { type: 'string', value: 'x' } }, [
      { name: 't', dims: [32], type: GgmlType.Q4_0, data: new Float32Array(32) },
    ]);
    await expect(readGguf(await fileOf(Buffer.from('NOPE and more bytes here'), 'magic.gguf'))).rejects.toThrow(
      'it does not start with GGUF',
    );
    await expect(readGguf(await fileOf(good.subarray(0, 40), 'short.gguf'))).rejects.toThrow('it ends too soon');
    const hugeCount = Buffer.from(good);
    hugeCount.writeBigUInt64LE(10n ** 12n, 8); // tensor count
    await expect(readGguf(await fileOf(hugeCount, 'count.gguf'))).rejects.toThrow('the tensor count 1000000000000 is more than 100000');
    const cutData = good.subarray(0, good.length - 32);
    await expect(readGguf(await fileOf(cutData, 'data.gguf'))).rejects.toThrow('tensor t runs past the end of the file');
    const badVersion = Buffer.from(good);
    badVersion.writeUInt32LE(7, 4);
    await expect(readGguf(await fileOf(badVersion, 'version.gguf'))).rejects.toThrow('version 7 is not 2 or 3');
  });
});

describe('dequantising ggml blocks', () => {
  const half = (value: number) => {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(value);
    return b;
  };

  it('Q4_0: low nibbles are elements 0-15, high nibbles 16-31, value (q - 8)·d', () => {
    const quants = Buffer.alloc(16);
    quants[0] = 0x0f | (0x00 << 4); // element 0 = 15, element 16 = 0
    quants[15] = 0x08 | (0x09 << 4); // element 15 = 8, element 31 = 9
    const values = dequantize(GgmlType.Q4_0, Buffer.concat([half(0xc000), quants]), 32); // d = -2
    expect([values[0], values[16], values[15], values[31], values[1]]).toEqual([-14, 16, -0, -2, 16]);
  });

  it('Q4_1: q·d + m, with a negative minimum', () => {
    const quants = Buffer.alloc(16, 0x21); // low 1, high 2
    const values = dequantize(GgmlType.Q4_1, Buffer.concat([half(0x3800), half(0xbc00), quants]), 32); // d 0.5, m -1
    expect([values[0], values[16]]).toEqual([-0.5, 0]);
  });

  it('Q8_0: signed bytes times d; F16 with subnormals and infinities', () => {
    const bytes = Buffer.concat([half(0x3c00), Buffer.from(Int8Array.from({ length: 32 }, (_, i) => i - 16).buffer)]);
    expect(dequantize(GgmlType.Q8_0, bytes, 32)[0]).toBe(-16);
    expect(Array.from(dequantize(GgmlType.F16, Buffer.concat([half(0x0001), half(0x7c00), half(0xfbff)]), 3))).toEqual([
      2 ** -24,
      Infinity,
      -65504,
    ]);
  });

  it('refuses a buffer shorter than the elements need', () => {
    expect(() => dequantize(GgmlType.Q4_1, Buffer.alloc(19), 32)).toThrow('A tensor of 32 elements needs 20 bytes; got 19');
  });
});
