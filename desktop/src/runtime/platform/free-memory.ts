/**
 * The memory this device can give a model: the lower of what the system has available and the
 * room its memory cgroup leaves. A process in a cgroup (a container, a systemd slice, a test's
 * capped machine) is killed at the cgroup's limit however much the system has free, so a plan
 * made from `os.freemem()` alone would give it blocks it cannot hold.
 *
 * Every file read is outside input (absent on other systems, `max`, garbage): any that does not
 * parse leaves that limit out, and the answer falls back to `os.freemem()`. Never throws.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { freemem } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';

export interface CgroupRoots {
  /** This process's cgroup membership (`/proc/self/cgroup`). */
  procSelfCgroup: string;
  /** cgroup v1's memory hierarchy mount. */
  v1Memory: string;
  /** cgroup v2's unified hierarchy mount. */
  v2: string;
}

export const SYSTEM_CGROUP_ROOTS: CgroupRoots = {
  procSelfCgroup: '/proc/self/cgroup',
  v1Memory: '/sys/fs/cgroup/memory',
  v2: '/sys/fs/cgroup',
};

/** Bytes this device can give a model now: `os.freemem()` (MemAvailable on Linux), or less when a memory cgroup caps the process. */
export function freeMemoryBytes(roots: CgroupRoots = SYSTEM_CGROUP_ROOTS, systemFree = freemem()): number {
  let free = systemFree;
  for (const line of (readSmall(roots.procSelfCgroup) ?? '').split('\n')) {
    // `id:controllers:path`; the path itself may hold colons.
    const [id, controllers, ...rest] = line.split(':');
    const path = rest.join(':');
    if (!path.startsWith('/')) continue;
    if (id === '0' && controllers === '') free = Math.min(free, room(roots.v2, path, V2));
    else if (controllers?.split(',').includes('memory')) free = Math.min(free, room(roots.v1Memory, path, V1));
  }
  return Math.max(0, Math.floor(free));
}

interface Files {
  limit: string;
  usage: string;
  /** memory.stat's key for page cache the kernel reclaims before it kills anything (this group and below). */
  reclaimable: string;
}
const V1: Files = { limit: 'memory.limit_in_bytes', usage: 'memory.usage_in_bytes', reclaimable: 'total_inactive_file' };
const V2: Files = { limit: 'memory.max', usage: 'memory.current', reclaimable: 'inactive_file' };

/**
 * The least room of the group and each ancestor up to the mount (a parent's limit caps its
 * children whatever theirs says): limit − usage + reclaimable page cache. Infinity where none is known.
 */
function room(mount: string, path: string, files: Files): number {
  const top = resolve(mount);
  // Inside a cgroup namespace (a container) the mount is the group itself and the path may not exist under it.
  let directory = resolve(join(top, path));
  if (directory !== top && !directory.startsWith(top + sep)) directory = top;
  let least = Infinity;
  for (;;) {
    const limit = readBytes(join(directory, files.limit));
    const usage = readBytes(join(directory, files.usage));
    if (limit !== null && usage !== null) {
      const reclaimable = readStat(join(directory, 'memory.stat'), files.reclaimable) ?? 0;
      least = Math.min(least, Math.max(0, limit - usage + Math.min(reclaimable, usage)));
    }
    if (directory === top) return least;
    directory = dirname(directory);
  }
}

/** A byte count from a one-value file; null when absent, `max` (no limit) or not a count. */
function readBytes(file: string): number | null {
  const text = readSmall(file)?.trim();
  return text !== undefined && /^\d{1,20}$/.test(text) ? Number(text) : null;
}

function readStat(file: string, key: string): number | null {
  for (const line of (readSmall(file) ?? '').split('\n')) {
    const [name, value] = line.trim().split(/\s+/);
    if (name === key && value !== undefined && /^\d{1,20}$/.test(value)) return Number(value);
  }
  return null;
}

/** A cgroup file is a few KB at most: reading stops there (a hostile path could be endless, like /dev/zero). */
function readSmall(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(64 * 1024);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, null));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
