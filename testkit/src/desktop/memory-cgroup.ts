/**
 * A memory cap for the processes of one test machine: a cgroup v1 memory group with
 * `memory.limit_in_bytes`, as root. Processes join it by pid (or a shell joins it and `exec`s
 * what it runs, so nothing escapes between fork and join); `close()` moves any still there to the
 * parent group and removes it. Groups are named `<prefix><pid>-<n>` under the memory root, so a
 * run killed before `close()` leaves names the next run's `sweepMemoryCgroups` finds.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pidAlive } from './pid-alive';

/** cgroup v1's memory hierarchy (these machines mount it here). */
const MEMORY_ROOT = '/sys/fs/cgroup/memory';

export interface MemoryCgroup {
  /** The group's directory. */
  path: string;
  limitBytes: number;
  /** Moves process `pid` into the group (its children then start in it). */
  add(pid: number): Promise<void>;
  /** `sh -c` script prefix that moves the shell into the group before it `exec`s the rest. */
  joinScript(): string;
  /** The most memory the group's processes used at once (pages of files they read count too). */
  peakBytes(): Promise<number>;
  usageBytes(): Promise<number>;
  /** Times the group hit its limit. */
  failures(): Promise<number>;
  close(): Promise<void>;
}

export function memoryCgroupsAvailable(): boolean {
  return process.getuid?.() === 0 && existsSync(join(MEMORY_ROOT, 'memory.limit_in_bytes'));
}

let made = 0;

/** A new group capped at `limitBytes` (swap, where accounted, capped the same: the cap must not move to swap). */
export async function createMemoryCgroup(limitBytes: number, prefix = 'mwcap'): Promise<MemoryCgroup> {
  if (!memoryCgroupsAvailable()) throw new Error(`Memory caps need root and cgroup v1's memory controller at ${MEMORY_ROOT}`);
  if (!/^[a-z]+$/.test(prefix)) throw new Error(`A cgroup prefix is lowercase letters, not ${JSON.stringify(prefix)}`);
  const path = join(MEMORY_ROOT, `${prefix}${process.pid}-${++made}`);
  await mkdir(path);
  await writeFile(join(path, 'memory.limit_in_bytes'), String(limitBytes));
  // Without swap accounting the file is absent; with it, limit+swap at the same value means no swap.
  await writeFile(join(path, 'memory.memsw.limit_in_bytes'), String(limitBytes)).catch(() => undefined);
  const read = async (file: string) => Number((await readFile(join(path, file), 'utf8')).trim());
  return {
    path,
    limitBytes,
    add: (pid) => writeFile(join(path, 'cgroup.procs'), String(pid)),
    joinScript: () => `echo $$ > ${join(path, 'cgroup.procs')} && `,
    peakBytes: () => read('memory.max_usage_in_bytes'),
    usageBytes: () => read('memory.usage_in_bytes'),
    failures: () => read('memory.failcnt'),
    close: () => removeGroup(path),
  };
}

/** Removes groups a killed run left (this prefix, a pid no longer running). */
export async function sweepMemoryCgroups(prefix = 'mwcap'): Promise<void> {
  if (!memoryCgroupsAvailable()) return;
  for (const name of await readdir(MEMORY_ROOT)) {
    const match = new RegExp(`^${prefix}(\\d+)-\\d+$`).exec(name);
    if (match && !pidAlive(Number(match[1]))) await removeGroup(join(MEMORY_ROOT, name));
  }
}

async function removeGroup(path: string): Promise<void> {
  if (!existsSync(path)) return;
  // A group with processes cannot be removed: any left go back to the root group first.
  const pids = (await readFile(join(path, 'cgroup.procs'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  for (const pid of pids) await writeFile(join(MEMORY_ROOT, 'cgroup.procs'), pid).catch(() => undefined);
  await rmdir(path).catch(() => undefined);
}
