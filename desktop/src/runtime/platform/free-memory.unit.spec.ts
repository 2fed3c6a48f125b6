import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CgroupRoots, freeMemoryBytes } from './free-memory';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

/** A fake /proc and /sys/fs/cgroup in a temp folder: real files, read the way the system's are. */
describe('the memory this device can give a model', () => {
  let dir: string;
  let roots: CgroupRoots;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'meshwork-cgroup-'));
    roots = { procSelfCgroup: join(dir, 'self-cgroup'), v1Memory: join(dir, 'memory'), v2: join(dir, 'unified') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const group = (root: string, path: string, files: Record<string, string>) => {
    mkdirSync(join(root, path), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, path, name), text);
  };
  const v1 = (path: string, limit: number | string, usage: number | string, inactive = 0) =>
    group(roots.v1Memory, path, {
      'memory.limit_in_bytes': `${limit}\n`,
      'memory.usage_in_bytes': `${usage}\n`,
      'memory.stat': `cache 1\ninactive_file 7\ntotal_inactive_file ${inactive}\n`,
    });
  const v2 = (path: string, max: number | string, current: number | string, inactive = 0) =>
    group(roots.v2, path, {
      'memory.max': `${max}\n`,
      'memory.current': `${current}\n`,
      'memory.stat': `anon 5\ninactive_file ${inactive}\n`,
    });

  it('is the system’s free memory outside any cgroup, or when the membership file is missing', () => {
    expect(freeMemoryBytes(roots, 8 * GB)).toBe(8 * GB);
    writeFileSync(roots.procSelfCgroup, '0::/\n');
    expect(freeMemoryBytes(roots, 8 * GB)).toBe(8 * GB);
  });

  it('is a cgroup v1 group’s limit less its usage, counting reclaimable page cache as room', () => {
    writeFileSync(roots.procSelfCgroup, '5:devices:/\n4:memory:/test/box\n0::/\n');
    v1('test/box', 2 * GB, 1536 * MB, 256 * MB);
    expect(freeMemoryBytes(roots, 8 * GB)).toBe(768 * MB);
    // The system's own free memory still bounds it.
    expect(freeMemoryBytes(roots, 500 * MB)).toBe(500 * MB);
  });

  it('takes the tightest ancestor: a parent’s limit caps its children whatever theirs says', () => {
    writeFileSync(roots.procSelfCgroup, '4:memory,hugetlb:/slice/box\n');
    v1('', '9223372036854771712', 3 * GB);
    v1('slice', GB, 900 * MB);
    v1('slice/box', '9223372036854771712', 600 * MB);
    expect(freeMemoryBytes(roots, 8 * GB)).toBe(124 * MB);
  });

  it('reads cgroup v2’s memory.max, memory.current and inactive_file, up the tree', () => {
    writeFileSync(roots.procSelfCgroup, '0::/user.slice/app\n');
    v2('', 'max', 5 * GB); // the root group has no limit
    v2('user.slice', 3 * GB, 2 * GB, 100 * MB);
    v2('user.slice/app', 'max', GB);
    expect(freeMemoryBytes(roots, 8 * GB)).toBe(1124 * MB);
  });

  it('never answers less than nothing, when usage is past the limit', () => {
    writeFileSync(roots.procSelfCgroup, '0::/box\n');
    v2('box', GB, 2 * GB);
    expect(freeMemoryBytes(roots, 8 * GB)).toBe(0);
  });

  it('falls back to the system’s free memory on files that are missing, garbage or not a count, and never throws', () => {
    writeFileSync(
      roots.procSelfCgroup,
      'garbage\n::\n4:memory:relative\n3:memory:/missing\n2:memory:/bad\n1:memory:/../../escape\n0::/odd\n',
    );
    v1('bad', '-5', 'lots', 3);
    group(roots.v1Memory, 'bad/x', { 'memory.stat': 'total_inactive_file nope' });
    v2('odd', '1e9', '12', 0);
    group(roots.v2, 'odd', { 'memory.stat': '\0\0\0' });
    expect(freeMemoryBytes(roots, 8 * GB)).toBe(8 * GB);
    // A usage file that is a directory, and a membership "file" that is a folder.
    group(roots.v1Memory, 'dir', {});
    mkdirSync(join(roots.v1Memory, 'dir', 'memory.usage_in_bytes'));
    writeFileSync(join(roots.v1Memory, 'dir', 'memory.limit_in_bytes'), '100');
    writeFileSync(roots.procSelfCgroup, '4:memory:/dir\n');
    expect(freeMemoryBytes(roots, 8 * GB)).toBe(8 * GB);
    expect(freeMemoryBytes({ ...roots, procSelfCgroup: dir }, 8 * GB)).toBe(8 * GB);
  });

  it('reads a group whose path escapes the mount as the mount itself (a cgroup namespace’s view)', () => {
    writeFileSync(roots.procSelfCgroup, '4:memory:/../../docker/abc\n');
    v1('', GB, 100 * MB);
    expect(freeMemoryBytes(roots, 8 * GB)).toBe(924 * MB);
  });
});
