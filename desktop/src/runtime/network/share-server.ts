/**
 * The host's side of a network's shares (issue 34, section 2): it answers an admitted member's
 * `fetch` with bytes of its installed package, so the model crosses the internet once per office.
 * Only the network's model at the version this device's signed document allows, only while it
 * serves, only files of the package's catalog manifest, and at a bounded rate host-wide: chat
 * frames interleave between the 1 MiB chunks, so answers keep their latency during a transfer.
 */
import { open, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { type LanToHost, type LanToMember, ModelManifest } from '@meshwork/contracts';
import { servingWords } from '../english';
import type { DesktopRuntime } from '../host';
import { CATALOG_MANIFEST } from '../models/share-store';

/** 48 MiB/s: most of a gigabit LAN, leaving room for the network's own traffic. */
export const DEFAULT_SHARE_BYTES_PER_SECOND = 48 * 1024 * 1024;
export const SHARE_RATE_ENV = 'MESHWORK_LAN_SHARE_BYTES_PER_SECOND';

/** The rate the environment sets, else the default; a value that is not a positive whole number is said, not guessed at. */
export function shareRate(env: NodeJS.ProcessEnv = process.env): number {
  const given = env[SHARE_RATE_ENV];
  if (given === undefined || given === '') return DEFAULT_SHARE_BYTES_PER_SECOND;
  const parsed = z.coerce.number().int().min(1024).safeParse(given);
  if (!parsed.success) throw new Error(`${SHARE_RATE_ENV} must be a whole number of bytes a second, at least 1024 (it is "${given}")`);
  return parsed.data;
}

/**
 * A token bucket as a schedule: each take books its bytes after the last booking, so waiters
 * are served in order and the long-run rate never exceeds `bytesPerSecond`; `burst` bytes may
 * go at once after a quiet spell.
 */
export class TokenBucket {
  /** When the bytes booked so far have all been paid for (ms). */
  private paidUntil = 0;

  constructor(
    readonly bytesPerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when `bytes` may be sent. */
  take(bytes: number): Promise<void> {
    const now = this.now();
    const burstMs = (this.burst * 1000) / this.bytesPerSecond;
    this.paidUntil = Math.max(this.paidUntil, now) + (bytes * 1000) / this.bytesPerSecond;
    const wait = this.paidUntil - burstMs - now;
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait).unref()) : Promise.resolve();
  }
}

type Fetch = Extract<LanToHost, { type: 'fetch' }>;
/** What the server asks of the runtime: whether it serves, what its signed document allows, where its packages are. */
export type ShareHost = Pick<DesktopRuntime, 'serving' | 'entitlements'> & { models: Pick<DesktopRuntime['models'], 'pathOf'> };
type Reply = Extract<LanToMember, { type: 'reply' }>;
export type ShareAnswer = { error: Reply['error']; payload?: Buffer };

/** The host's package files, checked against the network's model and this device's plan on every request. */
export class ShareServer {
  /** The catalog manifest of the installed package, read once per directory. */
  private listed: { directory: string; files: Map<string, number> } | null = null;

  constructor(
    private readonly runtime: ShareHost,
    /** The network's model (null: this device hosts none now). */
    private readonly networkModel: () => string | null,
    private readonly bucket: TokenBucket,
  ) {}

  /** The answer to a member's `fetch`: the bytes, or why not in words the member logs. */
  async answer(request: Fetch): Promise<ShareAnswer> {
    const refused = (message: string): ShareAnswer => ({ error: { kind: 'refused', message } });
    const missing = (message: string): ShareAnswer => ({ error: { kind: 'missing', message } });
    const model = this.networkModel();
    if (model !== request.model) return refused(`This network runs ${model ?? 'no model'}, not ${request.model}.`);
    const { reason } = this.runtime.serving();
    if (reason) return refused(servingWords(reason));
    const allowed = this.runtime.entitlements?.models.find((m) => m.name === model)?.version;
    if (allowed !== request.version) return refused(`The plan allows ${model} ${allowed ?? 'at no version'}, not ${request.version}.`);
    const directory = this.runtime.models.pathOf(model);
    if (directory === null || basename(directory) !== request.version)
      return missing(`This host does not have ${model} ${request.version} installed.`);
    const files = await this.filesOf(directory);
    if (!files) return missing(`This host's copy of ${model} has no catalog manifest.`);
    const size = files.get(request.file);
    if (size === undefined) return refused(`${request.file} is not a file of ${model} ${request.version}.`);
    if (request.offset > size) return refused(`${request.file} has ${size} bytes; there is nothing at ${request.offset}.`);
    const length = Math.min(request.length, size - request.offset);
    await this.bucket.take(length);
    try {
      const handle = await open(join(directory, request.file), 'r');
      try {
        const payload = Buffer.alloc(length);
        const { bytesRead } = await handle.read(payload, 0, length, request.offset);
        return { error: null, payload: payload.subarray(0, bytesRead) };
      } finally {
        await handle.close();
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT'
        ? missing(`This host no longer has ${request.file}.`)
        : { error: { kind: 'failed', message: `This host could not read ${request.file}: ${(error as Error).message}` } };
    }
  }

  /** The package's files and sizes by name (the catalog's manifest itself included), or null when it has none. */
  private async filesOf(directory: string): Promise<Map<string, number> | null> {
    if (this.listed?.directory === directory) return this.listed.files;
    const text = await readFile(join(directory, CATALOG_MANIFEST), 'utf8').catch(() => null);
    const parsed = text === null ? null : ModelManifest.safeParse(parseJson(text));
    if (!parsed?.success) return null;
    const files = new Map(parsed.data.files.map((f) => [f.name, f.size]));
    files.set(CATALOG_MANIFEST, Buffer.byteLength(text!));
    this.listed = { directory, files };
    return files;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
