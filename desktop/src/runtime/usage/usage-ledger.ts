import { appendFile, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { USAGE_HISTORY_MAX_DAYS, USAGE_HOUR_PATTERN, USAGE_MODEL_PATTERN, type UsageReport } from '@meshwork/contracts';
import { z } from 'zod';

/**
 * What this host ran, per device, model and UTC hour, kept on disk until the platform has it
 * (issue 35 §4). Counts and durations only: never a prompt or an answer.
 *
 * The file is a log of JSON lines, appended one line per answer (`use`, an increment) and per
 * acknowledgement (`sent`, the cumulative figures the platform confirmed). An append is one
 * small write, so a crash loses at most the line being written, and a torn or foreign line is
 * dropped when the file is read, with a log line, never a crash. The file stays bounded: past
 * COMPACT_BYTES it is rewritten (temporary file, flushed, renamed) as one `use` and one `sent`
 * line per hour still needed, hours the platform would refuse (older than 90 days) and hours
 * sent and closed long ago left out, and at most MAX_HOURS hours kept.
 */

export type UsageFigures = Pick<UsageReport, 'requests' | 'prompt_tokens' | 'completion_tokens' | 'busy_ms'>;

/** One device, model and hour: its figures so far and what the platform confirmed. */
interface Entry {
  device: string;
  model: string;
  hour: string;
  total: UsageFigures;
  sent: UsageFigures | null;
}

const HOUR_MS = 3_600_000;
const COMPACT_BYTES = 512 * 1024;
/** A file this many times the compaction size is not this host's: it is set aside unread. */
const READ_FACTOR = 16;
const MAX_HOURS = 20_000;
/** A sent hour is kept this long after it closed, so a late answer still adds to its figures. */
const KEEP_SENT_MS = 2 * HOUR_MS;
const FIELDS = ['requests', 'prompt_tokens', 'completion_tokens', 'busy_ms'] as const;

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const Line = z
  .object({
    k: z.enum(['use', 'sent']),
    d: z.string().min(1).max(64),
    m: z.string().regex(USAGE_MODEL_PATTERN),
    h: z.string().regex(USAGE_HOUR_PATTERN),
    r: count,
    p: count,
    c: count,
    b: count,
  })
  .strict();
type Line = z.output<typeof Line>;

const zero = (): UsageFigures => ({ requests: 0, prompt_tokens: 0, completion_tokens: 0, busy_ms: 0 });
const same = (a: UsageFigures, b: UsageFigures | null) => b !== null && FIELDS.every((field) => a[field] === b[field]);
const keyOf = (device: string, model: string, hour: string) => `${device}\u0000${model}\u0000${hour}`;
/** The UTC hour `at` falls in, as reports name it. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString();

export class UsageLedger {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Appends and rewrites, one at a time and in order. */
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly log: (message: string) => void,
    private readonly clock: () => Date,
    private readonly compactBytes: number,
  ) {}

  /** The ledger kept at `path`: what a previous run left, damaged lines dropped, compacted. */
  static async open(
    path: string,
    options: { log?: (message: string) => void; clock?: () => Date; compactBytes?: number } = {},
  ): Promise<UsageLedger> {
    const { log = () => undefined, clock = () => new Date(), compactBytes = COMPACT_BYTES } = options;
    const ledger = new UsageLedger(path, log, clock, compactBytes);
    await ledger.load();
    return ledger;
  }

  /** One answer of `model` on `device`, counted in the hour it finished. */
  record(device: string, model: string, figures: UsageFigures): Promise<void> {
    if (!USAGE_MODEL_PATTERN.test(model)) {
      this.log(`usage: not recorded, model name "${model.slice(0, 40)}" is not one the platform takes`);
      return Promise.resolve();
    }
    const line: Line = { k: 'use', d: device, m: model, h: hourOf(this.clock()), ...short(figures) };
    this.apply(line);
    return this.append([line]);
  }

  /** The hours of `device` the platform does not have as they are now, oldest first, at most `limit`. */
  pending(device: string, limit: number): UsageReport[] {
    const reports: UsageReport[] = [];
    for (const entry of [...this.entries.values()].sort((a, b) => a.hour.localeCompare(b.hour))) {
      if (reports.length >= limit) break;
      if (entry.device === device && !same(entry.total, entry.sent)) reports.push({ model: entry.model, hour: entry.hour, ...entry.total });
    }
    return reports;
  }

  /** The platform confirmed these cumulative figures of `device` (they may trail newer answers). */
  markSent(device: string, reports: readonly UsageReport[]): Promise<void> {
    const lines = reports.map((report): Line => ({ k: 'sent', d: device, m: report.model, h: report.hour, ...short(report) }));
    for (const line of lines) this.apply(line);
    return this.append(lines);
  }

  /** The figures held for a device, model and hour (tests, and the window's figures later). */
  figures(device: string, model: string, hour: string): { total: UsageFigures; sent: UsageFigures | null } | null {
    const entry = this.entries.get(keyOf(device, model, hour));
    return entry ? { total: { ...entry.total }, sent: entry.sent && { ...entry.sent } } : null;
  }

  /** Waits for the writes under way (before a close, or a test's restart). */
  settle(): Promise<void> {
    return this.writing;
  }

  private apply(line: Line): void {
    const key = keyOf(line.d, line.m, line.h);
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { device: line.d, model: line.m, hour: line.h, total: zero(), sent: null }));
    const figures = long(line);
    if (line.k === 'use') for (const field of FIELDS) entry.total[field] += figures[field];
    else entry.sent = figures;
  }

  private async load(): Promise<void> {
    let text = '';
    try {
      const size = (await stat(this.path)).size;
      if (size > READ_FACTOR * this.compactBytes) {
        this.log(`usage: ${this.path} is ${size} bytes, far more than this host writes: set aside unread`);
        await rename(this.path, `${this.path}.damaged`);
      } else text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    let dropped = 0;
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      const line = parseLine(raw);
      if (line) this.apply(line);
      else dropped++;
    }
    if (dropped > 0) this.log(`usage: dropped ${dropped} damaged line(s) of ${this.path}`);
    this.bytes = Buffer.byteLength(text);
    if (dropped > 0 || this.bytes > this.compactBytes) await this.compact();
  }

  private append(lines: Line[]): Promise<void> {
    if (lines.length === 0) return this.writing;
    const text = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
    this.writing = this.writing.then(async () => {
      try {
        await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
        await appendFile(this.path, text, { mode: 0o600 });
        this.bytes += Buffer.byteLength(text);
        if (this.bytes > this.compactBytes) await this.rewrite();
      } catch (error) {
        // A full or read-only disk loses this line's figures, never the answer that made them.
        this.log(`usage: could not write ${this.path}: ${(error as Error).message}`);
      }
    });
    return this.writing;
  }

  private compact(): Promise<void> {
    this.writing = this.writing.then(() => this.rewrite()).catch((error: Error) => this.log(`usage: could not compact: ${error.message}`));
    return this.writing;
  }

  /** The file as the entries still needed, written whole and renamed over the old one. */
  private async rewrite(): Promise<void> {
    const now = this.clock().getTime();
    const oldest = now - USAGE_HISTORY_MAX_DAYS * 24 * HOUR_MS;
    for (const [key, entry] of this.entries) {
      const end = Date.parse(entry.hour) + HOUR_MS;
      if (end <= oldest || (same(entry.total, entry.sent) && end + KEEP_SENT_MS < now)) this.entries.delete(key);
    }
    const kept = [...this.entries.entries()].sort(([, a], [, b]) => b.hour.localeCompare(a.hour));
    for (const [key] of kept.slice(MAX_HOURS)) this.entries.delete(key);
    if (kept.length > MAX_HOURS)
      this.log(`usage: kept the newest ${MAX_HOURS} hours, ${kept.length - MAX_HOURS} older ones dropped unsent`);
    const lines = [...this.entries.values()].flatMap((entry) => {
      const use: Line = { k: 'use', d: entry.device, m: entry.model, h: entry.hour, ...short(entry.total) };
      return entry.sent ? [use, { ...use, k: 'sent' as const, ...short(entry.sent) }] : [use];
    });
    const text = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const handle = await open(temporary, 'w', 0o600);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
      this.bytes = Buffer.byteLength(text);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

function parseLine(raw: string): Line | null {
  try {
    const parsed = Line.safeParse(JSON.parse(raw));
    return parsed.success && !Number.isNaN(Date.parse(parsed.data.h)) ? parsed.data : null;
  } catch {
    return null;
  }
}

const short = (f: UsageFigures) => ({ r: f.requests, p: f.prompt_tokens, c: f.completion_tokens, b: f.busy_ms });
const long = (line: Line): UsageFigures => ({ requests: line.r, prompt_tokens: line.p, completion_tokens: line.c, busy_ms: line.b });
