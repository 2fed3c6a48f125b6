import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import {
  DESKTOP_FORMATS,
  type DesktopFormat,
  type DesktopPlatform,
  DesktopReleasesIndex,
  desktopFormatOf,
  type DesktopReleasesIndex as Index,
} from '@meshwork/contracts';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { logger } from '../../platform/logging/logger';

export const INDEX_FILE = 'releases.json';

/** One file the installation built, checked against its index. */
export interface BuiltInFile {
  platform: DesktopPlatform;
  format: DesktopFormat;
  /** Its name inside the releases folder. */
  file: string;
  size: number;
  sha256: string;
}

/** The desktop app this installation built: its version, the files that are there as listed, and what the build left out. */
export interface BuiltInRelease {
  version: string;
  /** When the index was written. */
  builtAt: Date;
  files: BuiltInFile[];
  skipped: Index['skipped'];
}

/** The index read leniently: a bad entry costs that file, not the others. */
const Envelope = DesktopReleasesIndex.extend({ files: z.array(z.unknown()) });
const Entry = DesktopReleasesIndex.shape.files.element;
/** A plain file name: no folder, no way up, nothing hidden. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,254}$/;

interface Cached {
  /** The index's mtime and size when it was read: a new index is read again. */
  stamp: string;
  release: { version: string; builtAt: Date; entries: BuiltInFile[]; skipped: Index['skipped'] } | null;
}

/**
 * The installation's own desktop releases: DESKTOP_RELEASES_DIR/releases.json and the files
 * beside it (`npm start` builds them). Read defensively: no folder means none; a malformed
 * index is logged once and ignored; an entry whose name leaves the folder, whose extension
 * does not suit its platform, or whose file is missing or of another size is not offered.
 * The index is parsed once per change (its mtime); the files are looked at on every call,
 * so one removed since is never offered.
 */
@Injectable()
export class BuiltInReleases {
  private cached: Cached | null = null;
  readonly dir: string;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'desktopReleasesDir'>) {
    this.dir = path.resolve(config.desktopReleasesDir);
  }

  /** The built-in release with the files that are there as listed, or null when there is none. */
  async current(): Promise<BuiltInRelease | null> {
    const index = await this.index();
    if (!index) return null;
    const present = await Promise.all(index.entries.map(async (entry) => ((await this.locate(entry)) ? entry : null)));
    return { version: index.version, builtAt: index.builtAt, files: present.filter((f) => f !== null), skipped: index.skipped };
  }

  /** The file's bytes, if it is still there as listed (else null). */
  async open(entry: BuiltInFile): Promise<Readable | null> {
    const real = await this.locate(entry);
    if (!real) return null;
    const handle = await fs.promises.open(real, 'r').catch(() => null);
    if (!handle) return null;
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size !== entry.size) {
      await handle.close();
      return null;
    }
    return handle.createReadStream();
  }

  /** The file's real path when it is a regular file inside the folder, of the listed size. */
  private async locate(entry: BuiltInFile): Promise<string | null> {
    try {
      const [folder, real] = await Promise.all([fs.promises.realpath(this.dir), fs.promises.realpath(path.join(this.dir, entry.file))]);
      if (path.dirname(real) !== folder) return null; // a link out of the folder
      const stat = await fs.promises.stat(real);
      return stat.isFile() && stat.size === entry.size ? real : null;
    } catch {
      return null;
    }
  }

  private async index(): Promise<Cached['release']> {
    const file = path.join(this.dir, INDEX_FILE);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      return null; // no folder or no index: this installation built nothing (yet)
    }
    const stamp = `${stat.mtimeMs}:${stat.size}`;
    if (this.cached?.stamp !== stamp) this.cached = { stamp, release: await this.read(file, stat.mtime) };
    return this.cached.release;
  }

  private async read(file: string, builtAt: Date): Promise<Cached['release']> {
    let envelope: z.output<typeof Envelope>;
    try {
      const parsed = Envelope.safeParse(JSON.parse(await fs.promises.readFile(file, 'utf8')));
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      envelope = parsed.data;
    } catch (error) {
      logger.warn({ file, err: error }, 'the built-in desktop releases index cannot be read; no built-in release is offered');
      return null;
    }
    const entries: BuiltInFile[] = [];
    const problems: string[] = [];
    for (const [at, raw] of envelope.files.entries()) {
      const entry = Entry.safeParse(raw);
      if (!entry.success) {
        problems.push(`files.${at}: ${entry.error.issues[0]?.message ?? 'malformed'}`);
        continue;
      }
      const { platform, file: name, size, sha256 } = entry.data;
      const format = desktopFormatOf(name);
      if (!PLAIN_NAME.test(name) || name.includes('..')) problems.push(`files.${at}: ${JSON.stringify(name)} is not a plain file name`);
      else if (!format || DESKTOP_FORMATS[format].platform !== platform) problems.push(`files.${at}: ${name} is not a ${platform} file`);
      else if (entries.some((e) => e.format === format)) problems.push(`files.${at}: a second ${format} file`);
      else entries.push({ platform, format, file: name, size, sha256: sha256.toLowerCase() });
    }
    if (problems.length > 0) logger.warn({ file, problems }, 'the built-in desktop releases index lists files it cannot offer');
    return { version: envelope.version, builtAt, entries, skipped: envelope.skipped };
  }
}
