import fs from 'node:fs';
import path from 'node:path';

/**
 * A process, told apart from a later one that is given the same pid by its start time
 * (Linux: clock ticks after boot, from /proc; null where there is no /proc).
 */
export interface ProcessId {
  pid: number;
  startedAt: string | null;
}

/** Names the process that owns (and will stop) the embedded PostgreSQL of a data folder. */
const OWNER_FILE = 'postgres.owner.json';

/** This process, or the running process `pid`. */
export function processId(pid = process.pid): ProcessId {
  return { pid, startedAt: procStat(pid)?.startedAt ?? null };
}

/** Whether that very process still runs: not ended, not a zombie, and its pid not reused since. */
export function isRunning(owner: ProcessId): boolean {
  if (process.platform !== 'linux') return pidExists(owner.pid);
  const stat = procStat(owner.pid);
  return stat !== null && stat.state !== 'Z' && (owner.startedAt === null || stat.startedAt === owner.startedAt);
}

export const isThisProcess = (owner: ProcessId | null): boolean =>
  owner !== null && owner.pid === process.pid && owner.startedAt === processId().startedAt;

/** The recorded owner, or null when none is (or the record is unreadable: no owner then). */
export function readOwner(dataDir: string): ProcessId | null {
  try {
    const { pid, startedAt } = JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_FILE), 'utf8')) as ProcessId;
    return Number.isInteger(pid) && (typeof startedAt === 'string' || startedAt === null) ? { pid, startedAt } : null;
  } catch {
    return null;
  }
}

/** Records `owner`, replacing any record whole (a reader never sees half a file). */
export function writeOwner(dataDir: string, owner: ProcessId): void {
  const file = path.join(dataDir, OWNER_FILE);
  const temporary = `${file}.${process.pid}`;
  fs.writeFileSync(temporary, JSON.stringify(owner));
  fs.renameSync(temporary, file);
}

export function clearOwner(dataDir: string): void {
  fs.rmSync(path.join(dataDir, OWNER_FILE), { force: true });
}

function procStat(pid: number): { state: string; startedAt: string } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, which may hold spaces): field 3 is the state, field 22 the start time.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, startedAt: fields[19]! };
  } catch {
    return null;
  }
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // there, but not ours to signal
  }
}
