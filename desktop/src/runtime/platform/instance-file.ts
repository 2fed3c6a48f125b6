import { open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { JsonFile } from './json-file';

/** The running instance of a data directory, as it tells the next start where to find it. */
export const InstanceRecord = z.object({
  pid: z.number().int().positive(),
  /** The window's port on 127.0.0.1, and the secret that proves a caller can read this file; null while it starts. */
  port: z.number().int().min(1).max(65_535).nullable(),
  secret: z.string().min(32).max(128).nullable(),
  started_at: z.iso.datetime(),
});
export type InstanceRecord = z.output<typeof InstanceRecord>;

/** A start that has not opened its window by then is taken to have failed (its process id may now be another program's). */
const STARTING_LIMIT_MS = 30_000;
/** The guard is held for one read and one short loopback call; one older than this was left by a process that died holding it. */
const GUARD_STALE_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  if (pid === process.pid) return false; // a record left by an earlier process that had this id (before a restart)
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type Claim<Answer> = { kind: 'owner' } | { kind: 'running'; record: InstanceRecord; answer: Answer };

/**
 * One host per data directory: `instance.json` (owner only, like the rest of the directory)
 * names the process that runs it. A start claims the file, or finds the running instance and
 * asks it (through `ask`, which proves it can read the file) for what it needs; a file whose
 * process is gone or does not answer is taken over. A short-lived guard file makes each look and
 * take-over one step, so two starts at once cannot both win.
 */
export class InstanceFile {
  private readonly file: JsonFile<typeof InstanceRecord>;
  private readonly guard: string;
  private mine: InstanceRecord | null = null;

  constructor(dataDir: string) {
    this.file = new JsonFile(join(dataDir, 'instance.json'), InstanceRecord);
    this.guard = join(dataDir, 'instance.lock');
  }

  /** Claims the data directory, or answers what the running instance gave `ask` (null from `ask`: it does not answer). */
  async claim<Answer>(ask: (record: InstanceRecord & { port: number; secret: string }) => Promise<Answer | null>): Promise<Claim<Answer>> {
    for (;;) {
      const outcome = await this.guarded(async (): Promise<Claim<Answer> | 'starting'> => {
        const current = await this.file.read();
        if (current && alive(current.pid)) {
          if (current.port !== null && current.secret !== null) {
            const answer = await ask({ ...current, port: current.port, secret: current.secret });
            if (answer !== null) return { kind: 'running', record: current, answer };
          } else {
            const age = Date.now() - Date.parse(current.started_at);
            if (age >= 0 && age < STARTING_LIMIT_MS) return 'starting';
          }
        }
        this.mine = { pid: process.pid, port: null, secret: null, started_at: new Date().toISOString() };
        await this.file.write(this.mine);
        return { kind: 'owner' };
      });
      if (outcome !== 'starting') return outcome;
      await sleep(250);
    }
  }

  /** Tells later starts where this instance's window is, once it listens. */
  async publish(port: number, secret: string): Promise<void> {
    if (!this.mine) throw new Error('publish() before claim()');
    this.mine = { ...this.mine, port, secret };
    await this.guarded(() => this.file.write(this.mine!));
  }

  /** Gives the data directory up as the instance stops (the file is left alone if another process has taken it over). */
  async release(): Promise<void> {
    if (!this.mine) return;
    const mine = this.mine;
    this.mine = null;
    await this.guarded(async () => {
      const current = await this.file.read();
      if (current?.pid === mine.pid && current.started_at === mine.started_at) await this.file.remove();
    });
  }

  private async guarded<T>(step: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        await (await open(this.guard, 'wx', 0o600)).close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const held = await stat(this.guard).catch(() => null);
        if (held && Date.now() - held.mtimeMs > GUARD_STALE_MS) await rm(this.guard, { force: true });
        else await sleep(50);
      }
    }
    try {
      return await step();
    } finally {
      await rm(this.guard, { force: true });
    }
  }
}
