import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, readdir, readFile, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  type EntitlementDocument,
  type HostGenerationDefaults,
  type HostModel,
  type HostModelError,
  MODEL_MANIFEST_FILE,
  ModelManifest,
  ModelPackageManifest,
} from '@meshwork/contracts';
import { generationDefaults } from '../../engine/generation-defaults';
import type { ApiClient } from '../api/api-client';
import { isDiskFull } from '../platform/disk-full';
import { JsonFile } from '../platform/json-file';
import { downloadPackageFile, manifestPathOf } from './file-download';

/** Names that become directory and file names: nothing that climbs out of the store or hides. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;
export const safe = (name: string, what: string) => {
  if (!SAFE_NAME.test(name) || name.includes('..')) throw new Error(`The ${what} "${name}" cannot be stored on this device`);
  return name;
};

/** A download failed for a reason the window words (the code and its values). */
class DownloadFailed extends Error {
  constructor(readonly failure: HostModelError) {
    super(failure.code);
  }
}

const QueueRecord = z.object({ queued: z.array(z.string()) });
const PROGRESS_EVERY_MS = 250;
/** The catalog's manifest, kept beside the package: the display name comes back from it after a restart. */
const CATALOG_MANIFEST = 'manifest.json';

interface Transfer {
  version: string;
  status: 'queued' | 'downloading' | 'failed';
  activity: HostModel['activity'];
  done: number;
  total: number;
  speed: number;
  error: HostModelError | null;
}

const waiting = (version: string): Transfer => ({
  version,
  status: 'queued',
  activity: 'waiting',
  done: 0,
  total: 0,
  speed: 0,
  error: null,
});

/**
 * The models on this device: downloaded through the catalog's manifest and presigned links,
 * each file resumed with Range and checked against its SHA-256, the whole package moved into
 * place in one rename (so a model is either all there or not there). The manifest itself is
 * checked against the entitlement document's hash. Requested downloads are remembered, so an
 * interrupted one resumes when the host starts again.
 */
export class ModelStore extends EventEmitter<{ change: [] }> {
  private readonly root: string;
  private readonly queue: JsonFile<typeof QueueRecord>;
  private readonly installed = new Map<string, string>(); // name -> version
  private readonly transfers = new Map<string, Transfer>();
  private readonly displayNames = new Map<string, string>();
  /** An installed package's answer defaults, or null for a package that is not a Meshwork model. */
  private readonly generation = new Map<string, HostGenerationDefaults | null>();
  private describing: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private readonly abort = new AbortController();

  constructor(dataDir: string) {
    super();
    this.root = join(dataDir, 'models');
    this.queue = new JsonFile(join(this.root, 'downloads.json'), QueueRecord);
  }

  /** Reads what is installed; a `.partial` left by a crash is resumed, not trusted. */
  async load(): Promise<void> {
    await mkdir(join(this.root, '.partial'), { recursive: true, mode: 0o700 });
    for (const name of await readdir(this.root)) {
      if (name.startsWith('.') || name === 'downloads.json') continue;
      const versions = await readdir(join(this.root, name)).catch(() => []);
      if (versions[0]) await this.installedAt(name, versions[0]);
    }
  }

  /** Learns the display names of the plan's models it has not seen yet, from the catalog; a failure waits for the next document. */
  describe(api: ApiClient, document: EntitlementDocument): void {
    if (this.describing) return;
    const unknown = document.models.filter((m) => !this.displayNames.has(m.name));
    if (unknown.length === 0) return;
    this.describing = (async () => {
      for (const model of unknown) {
        const manifest = await api.request(manifestPathOf(model.name), { schema: ModelManifest }).catch(() => null);
        if (manifest) this.displayNames.set(model.name, manifest.display_name);
      }
      this.emit('change');
    })().finally(() => (this.describing = null));
  }

  /** The directory of an installed model, or null. */
  pathOf(name: string): string | null {
    const version = this.installed.get(name);
    return version ? join(this.root, name, version) : null;
  }

  view(document: EntitlementDocument | null): HostModel[] {
    const entitled = new Map((document?.models ?? []).map((m) => [m.name, m]));
    const names = [...new Set([...entitled.keys(), ...this.installed.keys()])].sort();
    return names.map((name) => {
      const transfer = this.transfers.get(name);
      const installed = this.installed.get(name);
      const version = transfer?.version ?? entitled.get(name)?.version ?? installed ?? '';
      const current = installed !== undefined && installed === (entitled.get(name)?.version ?? installed);
      const status = transfer?.status ?? (current ? 'installed' : 'not-downloaded');
      return {
        name,
        display_name: this.displayNames.get(name) ?? name,
        version,
        allowed: entitled.has(name),
        status,
        activity: status === 'failed' ? null : (transfer?.activity ?? null),
        bytes_done: transfer?.done ?? 0,
        bytes_total: transfer?.total ?? 0,
        bytes_per_second: transfer?.speed ?? 0,
        generation: status === 'installed' ? (this.generation.get(name) ?? null) : null,
        error: transfer?.error ?? null,
      };
    });
  }

  /** Queues a download of a model the plan allows; answers at once, the transfer goes on in the background. */
  async download(api: ApiClient, document: EntitlementDocument, name: string): Promise<void> {
    const entitled = document.models.find((m) => m.name === name);
    if (!entitled) throw new Error(`Your plan does not include the model "${name}".`);
    const queued = (await this.queue.read())?.queued ?? [];
    if (!queued.includes(name)) await this.queue.write({ queued: [...queued, name] });
    if (this.transfers.get(name)?.status !== 'downloading') this.transfers.set(name, waiting(entitled.version));
    this.emit('change');
    this.pump(api, () => document);
  }

  /** Picks up the downloads that were under way when the host stopped. */
  async resume(api: ApiClient, document: () => EntitlementDocument | null): Promise<void> {
    const queued = (await this.queue.read())?.queued ?? [];
    for (const name of queued) {
      const version = document()?.models.find((m) => m.name === name)?.version;
      if (version) this.transfers.set(name, waiting(version));
    }
    if (queued.length > 0) this.pump(api, document);
  }

  async remove(name: string): Promise<void> {
    safe(name, 'model name');
    await this.dequeue(name);
    this.transfers.delete(name);
    this.installed.delete(name);
    this.generation.delete(name);
    await rm(join(this.root, name), { recursive: true, force: true });
    await rm(join(this.root, '.partial', name), { recursive: true, force: true });
    this.emit('change');
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.running?.catch(() => undefined);
  }

  /** One download at a time: a disk and a link shared by several are no faster, and progress reads clearly. */
  private pump(api: ApiClient, document: () => EntitlementDocument | null): void {
    if (this.running) return;
    this.running = (async () => {
      for (let next = this.nextQueued(); next; next = this.nextQueued()) {
        const [name, transfer] = next;
        const entitled = document()?.models.find((m) => m.name === name);
        try {
          if (!entitled) throw new DownloadFailed({ code: 'no_longer_in_plan', model: name });
          await this.fetchModel(api, entitled, transfer);
          this.transfers.delete(name);
          await this.dequeue(name);
        } catch (error) {
          if (this.abort.signal.aborted) return;
          transfer.status = 'failed';
          transfer.activity = null;
          transfer.error = isDiskFull(error)
            ? { code: 'disk_filled', model: this.displayNames.get(name) ?? name }
            : error instanceof DownloadFailed
              ? error.failure
              : { code: 'download_failed', error: (error as Error).message };
          transfer.speed = 0;
        }
        this.emit('change');
      }
    })().finally(() => (this.running = null));
  }

  private nextQueued(): [string, Transfer] | undefined {
    return [...this.transfers.entries()].find(([, t]) => t.status === 'queued');
  }

  private async dequeue(name: string): Promise<void> {
    const queued = (await this.queue.read())?.queued ?? [];
    if (queued.includes(name)) await this.queue.write({ queued: queued.filter((n) => n !== name) });
  }

  private async fetchModel(api: ApiClient, entitled: EntitlementDocument['models'][number], transfer: Transfer): Promise<void> {
    const name = safe(entitled.name, 'model name');
    const version = safe(entitled.version, 'model version');
    transfer.status = 'downloading';
    transfer.activity = 'downloading';
    this.emit('change');
    const manifestPath = manifestPathOf(name);
    const { text, value: manifest } = await api.requestText(manifestPath, { schema: ModelManifest });
    this.displayNames.set(name, manifest.display_name);
    if (createHash('sha256').update(text).digest('hex') !== entitled.manifest_sha256)
      throw new DownloadFailed({ code: 'manifest_mismatch', model: name });
    const partial = join(this.root, '.partial', name, version);
    await mkdir(partial, { recursive: true, mode: 0o700 });
    const files = [...manifest.files].sort((a, b) => a.part_index - b.part_index);
    const have = await Promise.all(files.map((f) => statSize(join(partial, safe(f.name, 'file name')))));
    transfer.total = manifest.total_size;
    transfer.done = have.reduce((sum, size, i) => sum + Math.min(size, files[i]!.size), 0);
    await this.checkFreeSpace(manifest.total_size - transfer.done, manifest.display_name);

    // The speed is the bytes of the last second, measured every second whether bytes came or
    // not: a stalled download reads 0, never the last speed it had.
    let windowStart = Date.now();
    let windowBytes = 0;
    let lastEmit = 0;
    const ticker = setInterval(() => {
      const now = Date.now();
      transfer.speed = (windowBytes * 1000) / Math.max(1, now - windowStart);
      windowStart = now;
      windowBytes = 0;
      this.emit('change');
    }, 1000);
    const progress = (bytes: number) => {
      transfer.done += bytes;
      windowBytes += Math.max(0, bytes);
      const now = Date.now();
      if (now - lastEmit >= PROGRESS_EVERY_MS) {
        lastEmit = now;
        this.emit('change');
      }
    };
    const activity = (now: 'verifying' | 'downloading') => {
      transfer.activity = now;
      this.emit('change');
    };
    try {
      for (const file of files)
        await downloadPackageFile(api, name, file, join(partial, file.name), progress, this.abort.signal, activity, () => {
          transfer.done -= Math.min(transfer.done, file.size);
        });
    } finally {
      clearInterval(ticker);
      transfer.speed = 0;
    }
    transfer.activity = 'installing';
    this.emit('change');
    await writeFile(join(partial, CATALOG_MANIFEST), text, { mode: 0o600 });
    const target = join(this.root, name);
    await rm(target, { recursive: true, force: true });
    await mkdir(target, { recursive: true, mode: 0o700 });
    await rename(partial, join(target, version));
    await this.installedAt(name, version);
  }

  /** Records an installed package: its version, its display name, and the defaults its answers use. */
  private async installedAt(name: string, version: string): Promise<void> {
    this.installed.set(name, version);
    const directory = join(this.root, name, version);
    const catalog = ModelManifest.safeParse(await readJson(join(directory, CATALOG_MANIFEST)));
    if (catalog.success) this.displayNames.set(name, catalog.data.display_name);
    const model = ModelPackageManifest.safeParse(await readJson(join(directory, MODEL_MANIFEST_FILE)));
    if (!model.success) return void this.generation.set(name, null);
    const defaults = generationDefaults(model.data);
    this.generation.set(name, {
      temperature: defaults.temperature,
      top_p: defaults.topP,
      top_k: defaults.topK,
      repeat_penalty: defaults.repeatPenalty,
      max_tokens: defaults.maxTokens,
    });
  }

  private async checkFreeSpace(needed: number, displayName: string): Promise<void> {
    const fs = await statfs(this.root);
    const free = fs.bavail * fs.bsize;
    if (needed > free) throw new DownloadFailed({ code: 'disk_too_small', model: displayName, needed_bytes: needed, free_bytes: free });
  }
}

/** A file's JSON, or null when it is missing or not JSON (a package from elsewhere). */
async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return null;
  }
}
const statSize = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );
