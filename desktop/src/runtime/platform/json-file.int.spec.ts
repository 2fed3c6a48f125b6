import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { startHost } from '@meshwork/testkit/desktop/host-harness';
import { DiskFull } from './disk-full';
import { JsonFile } from './json-file';

/** Issue 31, item 10: a JSON write that meets a full disk (a 1 MB tmpfs, mounted as root). */
describe('a JSON file in the data directory on a full disk', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'meshwork-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]);
  });
  afterEach(async () => {
    execFileSync('umount', [dir]);
    await rm(dir, { recursive: true, force: true });
  });

  it('answers in words, keeps the old document and leaves no temporary file', async () => {
    const file = new JsonFile(join(dir, 'account.json'), z.object({ name: z.string() }));
    await file.write({ name: 'before' });
    // Fill what is left of the disk.
    await writeFile(join(dir, 'filler'), Buffer.alloc(2 * 1024 * 1024)).catch(() => undefined);

    const failed = await file.write({ name: 'x'.repeat(64 * 1024) }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(DiskFull);
    expect((failed as Error).message).toBe(
      `The disk holding ${dir} is full, so Meshwork could not save this change. Free some space on it and try again.`,
    );
    expect(await file.read()).toEqual({ name: 'before' });
    expect((await readdir(dir)).sort()).toEqual(['account.json', 'filler']);
    expect(JSON.parse(await readFile(join(dir, 'account.json'), 'utf8'))).toEqual({ name: 'before' });
  });

  it('makes the window server answer 507 with those words, not a raw 500', async () => {
    const host = await startHost('http://127.0.0.1:9', { dataDir: dir });
    try {
      await writeFile(join(dir, 'filler'), Buffer.alloc(2 * 1024 * 1024)).catch(() => undefined);
      const answer = await host.call('POST', '/host/api-keys', { name: 'x'.repeat(100) });
      expect(answer).toEqual({
        status: 507,
        body: { message: expect.stringMatching(/^The disk holding .* is full, so Meshwork could not save/) },
      });
      expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
