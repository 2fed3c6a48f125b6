/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * The engine thread on a real packed model (a tiny llama, onnxruntime): this process's event loop
 * keeps turning while a block computes, what comes back equals the same blocks run in one pass,
 * and the errors callers tell apart cross the thread as themselves.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelPackageManifest } from '@meshwork/contracts';
import { tinyLlamaGguf } from '@meshwork/testkit/desktop/tiny-llama';
import { packModel } from '../pack/packer';
import { GgmlType } from '../pack/quant';
import { EngineThread } from './engine-thread';
import { CacheMissing, ContextLengthError } from './errors';

let work: string;
let directory: string;
let manifest: ModelPackageManifest;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'engine-thread-'));
  const gguf = join(work, 'tiny.gguf');
  await writeFile(gguf, tinyLlamaGguf({ matrices: GgmlType.Q4_0 }));
  directory = join(work, 'package');
  manifest = await packModel({ gguf, out: directory, blocks: 2 });
});
afterAll(() => rm(work, { recursive: true, force: true }));

const ids = (count: number) => BigInt64Array.from({ length: count }, (_, i) => BigInt(1 + (i % 200)));

it('turns the event loop while a block computes, and answers what the blocks compute', async () => {
  const heard: string[] = [];
  const loading = EngineThread.load({ directory, manifest, blocks: [0, 1], options: {} }, () => heard.push('started'));
  const thread = await loading.finally(() => heard.push('loaded'));
  expect(heard).toEqual(['started', 'loaded']); // the runtime's own memory is read between the two
  try {
    let settled = false;
    const prompt = thread.forward(1, 0, 0, 2, ids(64), 64).finally(() => (settled = true));
    // On the main thread onnxruntime ran the whole session inside one turn: this turn came after it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    const logits = await prompt;
    expect(logits).toHaveLength(manifest.vocabSize);

    // Block by block, as a network runs them, the same logits.
    const hidden = await thread.forward(2, 0, 0, 1, ids(64), 64);
    expect(hidden).toHaveLength(64 * manifest.hidden);
    expect(await thread.forward(2, 0, 1, 2, hidden, 64)).toEqual(logits);
    expect(thread.cacheBytes).toBeGreaterThan(0);
    thread.release(1);
    thread.release(2);
    expect(thread.cacheBytes).toBe(0);
  } finally {
    await thread.close();
  }
});

it('carries the errors callers tell apart across the thread, and refuses work once closed', async () => {
  const thread = await EngineThread.load({ directory, manifest, blocks: [0, 1], options: {} });
  await expect(thread.forward(9, 5, 0, 2, ids(1), 1)).rejects.toBeInstanceOf(CacheMissing);
  const tooLong = manifest.contextLength + 1;
  await expect(thread.forward(3, 0, 0, 2, ids(tooLong), tooLong)).rejects.toBeInstanceOf(ContextLengthError);
  await expect(thread.forward(4, 0, 0, 3, ids(1), 1)).rejects.toThrow(`This device does not hold block 2 of ${manifest.name}.`);
  await thread.close();
  await expect(thread.forward(1, 0, 0, 2, ids(1), 1)).rejects.toThrow('The engine thread is closed');
});

it('rejects a load with the reason', async () => {
  await expect(EngineThread.load({ directory: join(work, 'nowhere'), manifest, blocks: [0], options: {} })).rejects.toThrow(
    /nowhere|No such file|Load model/i,
  );
});
