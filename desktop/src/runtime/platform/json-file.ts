import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { DiskFull, isDiskFull } from './disk-full';

/**
 * A JSON document in the host's data directory. Writes are atomic (a temporary file, flushed,
 * renamed over the old one), so a crash or a power cut leaves the old document or the new one,
 * never half of either; a write that fails (a full disk) removes its temporary file and leaves the
 * old document. Files are readable by the owner only: they hold tokens.
 */
let temporaryFiles = 0;

export class JsonFile<Schema extends z.ZodType> {
  constructor(
    readonly path: string,
    private readonly schema: Schema,
  ) {}

  /** The document, or null when there is none or it does not pass the schema (a damaged file is treated as absent). */
  async read(): Promise<z.output<Schema> | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const parsed = this.schema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async write(value: z.input<Schema>): Promise<void> {
    const checked: unknown = this.schema.parse(value);
    const temporary = `${this.path}.${process.pid}.${(temporaryFiles++).toString(36)}.tmp`; // concurrent writes each have their own
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const handle = await open(temporary, 'w', 0o600);
      try {
        await handle.writeFile(JSON.stringify(checked, null, 2));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      if (isDiskFull(error))
        throw new DiskFull(
          `The disk holding ${dirname(this.path)} is full, so Meshwork could not save this change. Free some space on it and try again.`,
        );
      throw error;
    }
  }

  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
