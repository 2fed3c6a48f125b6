/**
 * What bench:network reads of a lab machine's processes from /proc, measured from outside
 * rather than as the devices report themselves: CPU time (to say what separate machines would
 * give, when two cores hold three devices), peak RSS, and the page cache dropped before a capped run.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { LanLab } from '@meshwork/testkit/desktop/lan-lab';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** The pids in the machine's network namespace (the host, the loopback forwarder). */
export function namespacePids(lab: LanLab, machine: string): number[] {
  return execFileSync('ip', ['netns', 'pids', lab.machine(machine).namespace], { encoding: 'utf8' })
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
}

/** CPU seconds (user + system, every thread) the machine's processes used so far. */
export function cpuSeconds(lab: LanLab, machine: string): number {
  return namespacePids(lab, machine).reduce((sum, pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return sum + (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {
      return sum; // it ended meanwhile
    }
  }, 0);
}

/** The machine's desktop host: the process running the lab agent. */
export function hostPid(lab: LanLab, machine: string): number {
  const pid = namespacePids(lab, machine).find((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('lan-agent');
    } catch {
      return false;
    }
  });
  if (pid === undefined) throw new Error(`no desktop host runs in ${machine}`);
  return pid;
}

const status = (pid: number, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** VmHWM: the most resident memory the process held. */
export const peakRssOf = (pid: number) => status(pid, 'VmHWM');

/**
 * Writes dirty pages out and drops the page cache (root), so a capped run reads its weights from
 * disk: pages another process left cached are charged to its cgroup, not the capped one, and
 * would make the cap a fiction.
 */
export function dropPageCache(): void {
  execFileSync('sync');
  writeFileSync('/proc/sys/vm/drop_caches', '3');
}
