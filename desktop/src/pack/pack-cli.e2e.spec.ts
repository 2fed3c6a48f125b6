/**
 * `npm run model:pack`'s entry point stopped mid-pack (Ctrl-C): it says so, exits 130, and
 * leaves neither the package nor its hidden partial sibling behind.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pack-cli-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

it('stops at Ctrl-C with a clear message and nothing written', async () => {
  // A real model in six blocks: the first block's line comes with most of a second's work ahead.
  const gguf = process.env.MESHWORK_SMOLLM2_GGUF!;
  const out = join(work, 'package');
  const pack = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, 'pack.main.ts'), '--gguf', gguf, '--blocks', '6', '--out', out],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  pack.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const firstBlock = new Promise<void>((resolve) =>
    pack.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('block-0.onnx:')) resolve();
    }),
  );
  const exited = once(pack, 'exit') as Promise<[number | null]>;
  await Promise.race([firstBlock, exited]); // a pack that ends first fails the checks below, never hangs
  pack.kill('SIGINT');
  const [code] = await exited;
  expect({ code, stderr: stderr.trim() }).toEqual({ code: 130, stderr: `Stopped: nothing was written to ${out}.` });
  expect(await readdir(work)).toEqual([]);
});
