import { execFile } from 'node:child_process';
import { freemem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createMemoryCgroup, type MemoryCgroup } from '@meshwork/testkit/desktop/memory-cgroup';

/** Issue 34, item 1: a process in a real memory cgroup (cgroup v1, as root) is told its cap, not the machine's free memory. */
describe('the free memory a capped process reports', () => {
  let cap: MemoryCgroup;
  afterEach(() => cap?.close());

  it('is at most its cgroup’s limit, however much the machine has free', async () => {
    const limit = 300 * 1024 ** 2;
    expect(freemem()).toBeGreaterThan(limit); // else the test proves nothing
    cap = await createMemoryCgroup(limit, 'mwfree');
    // Node 24 strips the types of the module it imports; the shell joins the group before exec.
    const script = `const m = await import(${JSON.stringify(join(__dirname, 'free-memory.ts'))}); console.log(m.freeMemoryBytes());`;
    const { stdout } = await promisify(execFile)('sh', [
      '-c',
      `${cap.joinScript()}exec "$0" --no-warnings --input-type=module -e "$1"`,
      process.execPath,
      script,
    ]);
    const reported = Number(stdout.trim());
    expect(reported).toBeLessThanOrEqual(limit);
    // The node process itself is charged to the group: what is left is less than the limit, but not nothing.
    expect(reported).toBeGreaterThan(limit / 2);
    expect(reported).toBeLessThan(limit);
  });
});
