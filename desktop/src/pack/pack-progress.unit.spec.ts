import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDuration, progressLine, progressReporter, type PackProgress } from './pack-progress';
import { packModel } from './packer';
import { GgmlType } from './quant';
import { tinyLlamaGguf } from '@meshwork/testkit/desktop/tiny-llama';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pack-progress-'));
  await writeFile(join(work, 'tiny.gguf'), tinyLlamaGguf({ matrices: GgmlType.Q4_0 }));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A stream that keeps what is written to it. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
}

describe('the progress line', () => {
  const at = (bytesDone: number): PackProgress => ({
    block: 1,
    blocks: 2,
    step: 'block 1 of 2: read layer 1 of 3',
    bytesDone,
    bytesTotal: 100e6,
  });

  it('shows a bar, the bytes done and the time left at the pace so far', () => {
    expect(progressLine(at(25e6), 10_000, 20)).toBe('[#####---------------]  25% 25/100 MB · block 1 of 2: read layer 1 of 3 · 30 s left');
    expect(progressLine(at(100e6), 90_000, 4)).toBe('[####] 100% 100/100 MB · block 1 of 2: read layer 1 of 3 · 0 s left');
  });

  it('does not guess the time left before a second of work', () => {
    expect(progressLine(at(0), 5_000, 4)).toBe('[----]   0% 0/100 MB · block 1 of 2: read layer 1 of 3 · estimating the time left');
    expect(progressLine(at(50e6), 200, 4)).toContain('estimating the time left');
  });

  it('says durations in seconds, minutes or hours', () => {
    expect([formatDuration(4.6), formatDuration(75), formatDuration(3725)]).toEqual(['5 s', '1 min 15 s', '1 h 02 min']);
  });
});

describe('progress while packing', () => {
  it('prints one plain line per block when stderr is not a terminal', async () => {
    const out = stream(false);
    const err = stream(false);
    const display = progressReporter(out, err);
    await packModel({ gguf: join(work, 'tiny.gguf'), out: join(work, 'plain'), blocks: 3, ...display });
    display.finish();
    expect(out.written).toEqual([
      expect.stringMatching(/^block-0\.onnx: layers 0-0, [\d.]+ MB, \d+ ms\n$/),
      expect.stringMatching(/^block-1\.onnx: layers 1-1, /),
      expect.stringMatching(/^block-2\.onnx: layers 2-2, /),
    ]);
    expect(err.written).toEqual([]);
  });

  it('draws the bar on a terminal, up to every byte of the model, and clears it', async () => {
    const out = stream(true);
    const err = stream(true);
    let clock = 0;
    const display = progressReporter(out, err, () => (clock += 1000));
    const updates: PackProgress[] = [];
    await packModel({
      gguf: join(work, 'tiny.gguf'),
      out: join(work, 'terminal'),
      blocks: 2,
      log: display.log,
      progress: (update) => {
        updates.push(update);
        display.progress(update);
      },
    });
    display.finish();
    const last = updates.at(-1)!;
    expect(last.bytesDone).toBe(last.bytesTotal);
    expect(updates.map((u) => u.bytesDone)).toEqual([...updates.map((u) => u.bytesDone)].sort((a, b) => a - b));
    expect(err.written.filter((text) => text.startsWith('\r\x1b[2K[')).length).toBeGreaterThan(5);
    expect(err.written.join('')).toMatch(/\[#+\] 100% \d+\/\d+ MB · block 2 of 2: .* s left/);
    expect(err.written.at(-1)).toBe('\r\x1b[2K');
    expect(out.written).toHaveLength(2);
  });
});
