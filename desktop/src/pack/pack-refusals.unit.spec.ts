/**
 * A damaged GGUF is refused with a message naming what is wrong, and no failure leaves a
 * package, or part of one, behind.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packModel } from './packer';
import { GgmlType } from './quant';
import { tinyLlamaGguf } from '@meshwork/testkit/desktop/tiny-llama';

let work: string;
const good = tinyLlamaGguf({ matrices: GgmlType.Q8_0 });
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pack-refusals-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Where a tensor's entry in the header keeps its offset (after its name, dims and type). */
function offsetField(gguf: Buffer, name: string, rank: number): number {
  const at = gguf.indexOf(Buffer.from(name, 'utf8'));
  if (at < 0) throw new Error(`no tensor ${name} in the header`);
  return at + name.length + 4 + 8 * rank + 4;
}

/** Packs `gguf` into `work/<label>`; answers the error and what is left in `work` of that package. */
async function refusal(label: string, gguf: Buffer, options: Partial<Parameters<typeof packModel>[0]> = {}) {
  const path = join(work, `${label}.gguf`);
  await writeFile(path, gguf);
  const error = await packModel({ gguf: path, out: join(work, label), blocks: 3, ...options }).then(
    () => new Error('packed'),
    (refused: unknown) => refused as Error,
  );
  const left = (await readdir(work)).filter((name) => name.includes(label) && name !== `${label}.gguf`);
  return { message: error.message, left };
}

describe('packing a damaged GGUF', () => {
  it('refuses a file cut short, naming the tensor that runs past its end', async () => {
    const { message, left } = await refusal('truncated', good.subarray(0, good.length - 1000));
    expect(message).toMatch(
      /truncated\.gguf is cut short: tensor \S+ runs past the end of the file \(it ends at byte \d+, the file has \d+/,
    );
    expect(left).toEqual([]);
  });

  it('refuses tensors that overlap or come out of order', async () => {
    const overlapping = Buffer.from(good);
    // blk.0.attn_k starts where blk.0.attn_q starts: inside the tensor listed before it.
    const q = overlapping.readBigUInt64LE(offsetField(overlapping, 'blk.0.attn_q.weight', 2));
    overlapping.writeBigUInt64LE(q, offsetField(overlapping, 'blk.0.attn_k.weight', 2));
    const { message, left } = await refusal('overlap', overlapping);
    expect(message).toMatch(/tensor blk\.0\.attn_k\.weight starts at data byte \d+, inside or before the tensor listed before it/);
    expect(left).toEqual([]);
  });

  it('refuses a misaligned tensor and absurd counts', async () => {
    const misaligned = Buffer.from(good);
    const field = offsetField(misaligned, 'blk.1.ffn_down.weight', 2);
    misaligned.writeBigUInt64LE(misaligned.readBigUInt64LE(field) + 1n, field);
    expect(await refusal('misaligned', misaligned)).toEqual({
      message: expect.stringContaining('tensor blk.1.ffn_down.weight is not aligned to 32 bytes') as string,
      left: [],
    });
    const tensors = Buffer.from(good);
    tensors.writeBigUInt64LE(1n << 40n, 8);
    expect((await refusal('tensors', tensors)).message).toContain('the tensor count 1099511627776 is more than 100000');
    const name = Buffer.from(good);
    const at = name.indexOf(Buffer.from('token_embd.weight', 'utf8')) - 8; // its length field
    name.writeBigUInt64LE(1n << 50n, at);
    expect((await refusal('name', name)).message).toMatch(/a string length 1125899906842624 is more than \d+/);
  });

  it('leaves nothing behind when packing fails after blocks were written', async () => {
    const failing = await refusal('midway', good, {
      progress: ({ block }) => {
        if (block === 3) throw new Error('the disk is full');
      },
    });
    expect(failing).toEqual({ message: 'the disk is full', left: [] });
    // The same file packs whole, and only the package is left: no partial sibling.
    await packModel({ gguf: join(work, 'midway.gguf'), out: join(work, 'midway'), blocks: 3 });
    expect((await readdir(work)).filter((name) => name.includes('midway'))).toEqual(['midway', 'midway.gguf']);
    expect(await readdir(join(work, 'midway'))).toEqual(
      expect.arrayContaining(['model.json', 'tokenizer.json', 'block-0.onnx', 'block-0.bin', 'block-2.onnx']),
    );
  });
});

describe('packing stopped (Ctrl-C)', () => {
  it('stops at the next tensor with the reason given, and leaves nothing behind', async () => {
    const stop = new AbortController();
    const stopped = await refusal('stopped', good, {
      signal: stop.signal,
      progress: ({ block }) => {
        if (block === 2) stop.abort(new Error('Stopped: nothing was written.'));
      },
    });
    expect(stopped).toEqual({ message: 'Stopped: nothing was written.', left: [] });
  });
});
