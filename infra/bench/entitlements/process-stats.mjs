// What the api process costs, read from Linux's /proc: resident memory and CPU time.
import fs from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK)

/** The process's resident set now (VmRSS), in bytes. */
export function residentBytes(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
}

/** CPU seconds the process has used so far, user and system (utime + stime), threads included. */
export function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime] = [fields[11], fields[12]].map(Number); // fields 14 and 15 of proc(5)
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Waits until the process is nearly idle (under 3% of a core over a second), at most
 * `maxSeconds`: after seeding, the in-process projections and the garbage collector are busy
 * for a while, and their work must not be counted against what is measured next.
 * Answers the seconds waited.
 */
export async function quiet(pid, maxSeconds = 30) {
  const started = performance.now();
  for (let waited = 0; waited < maxSeconds; waited++) {
    const before = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuSeconds(pid) - before <= 0.03) break;
  }
  return (performance.now() - started) / 1000;
}
