/**
 * A member's share of its network's model (issue 34, section 2): only the files of the blocks
 * the host gave it, with `model.json` and the tokenizer, under `models/.shares/<name>/<version>/`
 * (ModelStore skips dot names, so a share never passes for an installed model). Each file comes
 * from the network's host over the LAN when it has it, else from the platform's presigned links,
 * and counts only once it matches the catalog's manifest, whose SHA-256 the signed document
 * carries, whoever served it: a host's bytes are trusted no more than the internet's.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  LAN_FETCH_MAX_BYTES,
  type LanShareReport,
  MODEL_MANIFEST_FILE,
  ModelManifest,
  type ModelPackageManifest,
} from '@meshwork/contracts';
import { readManifest } from '../../engine/local-model';
import { JsonFile } from '../platform/json-file';
import { downloadPackageFile, hashOf, manifestPathOf } from './file-download';
import { safe } from './model-store';

/** The catalog's manifest, as ModelStore keeps it beside an installed package (the host serves it under this name). */
export const CATALOG_MANIFEST = 'manifest.json';
const SOURCES = '.sources.json';
/** A catalog manifest is a few kilobytes; a host that sends more is not sending one. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
/** LAN requests in flight per file: the next chunk is on its way while one is written. */
const IN_FLIGHT = 2;

export type FileSource = LanShareReport['files'][number]['source'];
const Sources = z.object({ files: z.record(z.string(), z.enum(['lan', 'platform', 'installed'])) });
type CatalogFile = ModelManifest['files'][number];

/** The network's host, as a source of package files: up to `length` bytes from `offset` (fewer only at the file's end); throws when it cannot serve them. */
export interface HostFiles {
  read(file: string, offset: number, length: number): Promise<Buffer>;
}

export interface ShareSources {
  api: { request<S extends z.ZodType>(path: string, options: { schema: S }): Promise<z.output<S>> } & {
    requestText<S extends z.ZodType>(path: string, options: { schema: S }): Promise<{ text: string; value: z.output<S> }>;
  };
  /** The signed entitlement document's `manifest_sha256` for this model. */
  manifestSha256: string;
  host: HostFiles | null;
  signal: AbortSignal;
  /** Bytes on disk of the files the share needs, as they grow (throttle on the other side). */
  progress(done: number, total: number): void;
  log(message: string): void;
}

/** The files blocks `blocks` of a package need: its manifest, its tokenizer, each block's graph and weights. */
export function shareFiles(manifest: ModelPackageManifest, blocks: number[]): string[] {
  const files = [MODEL_MANIFEST_FILE, manifest.tokenizer];
  for (const index of blocks) {
    const block = manifest.blocks[index];
    if (!block) throw new Error(`The model has no block ${index}.`);
    files.push(block.file, block.weights.file);
  }
  return [...new Set(files)];
}

/** What a share (or an installed package) holds for the report: `blocks`' files and where each came from, and the folder's bytes on disk. */
export async function describeShare(
  directory: string,
  blocks: number[],
  sourceOf: (file: string) => FileSource | undefined,
): Promise<Pick<LanShareReport, 'files' | 'disk_bytes'>> {
  const manifest = await readManifest(directory);
  const files: LanShareReport['files'] = [];
  for (const name of shareFiles(manifest, blocks)) {
    const source = sourceOf(name);
    const bytes = await sizeOf(join(directory, name));
    if (source && bytes !== null) files.push({ name, bytes, source });
  }
  let disk = 0;
  for (const name of await readdir(directory)) disk += (await sizeOf(join(directory, name))) ?? 0;
  return { files, disk_bytes: disk };
}

export class ShareStore {
  readonly directory: string;
  private readonly sources: JsonFile<typeof Sources>;
  /** Bytes done and needed while `ensure` fetches, else null. */
  transfer: { done_bytes: number; total_bytes: number } | null = null;

  constructor(
    dataDir: string,
    readonly model: string,
    readonly version: string,
  ) {
    this.directory = join(dataDir, 'models', '.shares', safe(model, 'model name'), safe(version, 'model version'));
    this.sources = new JsonFile(join(this.directory, SOURCES), Sources);
  }

  /** Fetches what blocks `blocks` need and the share does not hold yet; bytes already on disk are kept. */
  async ensure(blocks: number[], from: ShareSources): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const recorded = (await this.sources.read())?.files ?? {};
    const record = async (name: string, source: FileSource) => {
      recorded[name] = source;
      await this.sources.write({ files: recorded });
    };
    const catalog = await this.catalog(from, recorded, record);
    const entry = (name: string): CatalogFile => {
      const file = catalog.files.find((f) => f.name === name);
      if (!file) throw new Error(`The catalog's manifest of ${this.model} does not list ${name}.`);
      return file;
    };
    const model = entry(MODEL_MANIFEST_FILE);
    this.transfer = { done_bytes: 0, total_bytes: model.size };
    try {
      await this.fetchFile(model, from, recorded, record);
      const manifest = await readManifest(this.directory);
      // model.json names each block's hashes too: a catalog that disagrees with its own package is not loaded.
      for (const index of blocks) {
        const block = manifest.blocks[index];
        for (const part of block ? [block, { file: block.weights.file, sha256: block.weights.sha256 }] : [])
          if (entry(part.file).sha256.toLowerCase() !== part.sha256)
            throw new Error(`${part.file} has another SHA-256 in model.json than in the catalog.`);
      }
      const files = shareFiles(manifest, blocks).map(entry);
      this.transfer.total_bytes = files.reduce((sum, f) => sum + f.size, 0);
      this.transfer.done_bytes = 0;
      for (const file of files) this.transfer.done_bytes += Math.min(file.size, (await sizeOf(join(this.directory, file.name))) ?? 0);
      for (const file of files) await this.fetchFile(file, from, recorded, record);
    } finally {
      this.transfer = null;
    }
  }

  /** Deletes the files of blocks no longer held (after the new assignment loaded): disk follows the share. */
  async prune(blocks: number[]): Promise<void> {
    const keep = new Set([...shareFiles(await readManifest(this.directory), blocks), CATALOG_MANIFEST, SOURCES]);
    const recorded = (await this.sources.read())?.files ?? {};
    for (const name of await readdir(this.directory)) {
      if (keep.has(name)) continue;
      await rm(join(this.directory, name), { force: true });
      delete recorded[name];
    }
    await this.sources.write({ files: recorded });
  }

  async report(blocks: number[]): Promise<Pick<LanShareReport, 'files' | 'disk_bytes'>> {
    const recorded = (await this.sources.read())?.files ?? {};
    return describeShare(this.directory, blocks, (name) => recorded[name]);
  }

  /** The catalog's manifest, from the host, else the api; checked against the signed document either way. */
  private async catalog(
    from: ShareSources,
    recorded: Record<string, FileSource>,
    record: (name: string, source: FileSource) => Promise<void>,
  ): Promise<ModelManifest> {
    const path = join(this.directory, CATALOG_MANIFEST);
    const matches = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex') === from.manifestSha256;
    let bytes: Buffer | null = await readFile(path).catch(() => null);
    let source = recorded[CATALOG_MANIFEST];
    if (!bytes || !source || !matches(bytes)) {
      bytes = null;
      if (from.host) {
        const fromHost = await readWhole(from.host, CATALOG_MANIFEST).catch((error: Error) => {
          from.log(`share: the host did not serve the manifest: ${error.message}`);
          return null;
        });
        if (fromHost && matches(fromHost)) [bytes, source] = [fromHost, 'lan'];
        else if (fromHost) from.log('share: the host’s manifest does not match the plan’s; taking the platform’s');
      }
      if (!bytes) {
        const { text } = await from.api.requestText(manifestPathOf(this.model), { schema: ModelManifest });
        bytes = Buffer.from(text);
        source = 'platform';
        if (!matches(bytes)) throw new Error(`The catalog's manifest of ${this.model} does not match the one the plan names.`);
      }
      await writeFile(path, bytes, { mode: 0o600 });
      await record(CATALOG_MANIFEST, source!);
    }
    const catalog = ModelManifest.parse(JSON.parse(bytes.toString('utf8')));
    if (catalog.name !== this.model || catalog.version !== this.version)
      throw new Error(`The plan names ${catalog.name} ${catalog.version}, not ${this.model} ${this.version}.`);
    return catalog;
  }

  /** One file: kept if recorded whole, else from the host (resumed), else from the platform; checked either way. */
  private async fetchFile(
    file: CatalogFile,
    from: ShareSources,
    recorded: Record<string, FileSource>,
    record: (name: string, source: FileSource) => Promise<void>,
  ): Promise<void> {
    const path = join(this.directory, safe(file.name, 'file name'));
    // A recorded file passed its check when it came; its block's loader checks it again.
    if (recorded[file.name] && (await sizeOf(path)) === file.size) return;
    if (recorded[file.name]) {
      delete recorded[file.name]; // not whole any more: the report must not name its old source meanwhile
      await this.sources.write({ files: recorded });
    }
    const transfer = this.transfer!;
    const progress = (bytes: number) => {
      transfer.done_bytes += bytes;
      from.progress(transfer.done_bytes, transfer.total_bytes);
    };
    if (from.host) {
      try {
        await fetchFromHost(from.host, file, path, progress, from.signal);
        return await record(file.name, 'lan');
      } catch (error) {
        if (from.signal.aborted) throw error;
        from.log(`share: ${file.name} from the platform: ${(error as Error).message}`);
      }
    }
    await downloadPackageFile(from.api, this.model, file, path, progress, from.signal, undefined, () =>
      progress(-Math.min(transfer.done_bytes, file.size)),
    );
    await record(file.name, 'platform');
  }
}

/** A file whose size the member does not know yet (the catalog's manifest): chunks until a short one ends it. */
async function readWhole(host: HostFiles, file: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (let offset = 0; ;) {
    const chunk = await host.read(file, offset, LAN_FETCH_MAX_BYTES);
    chunks.push(chunk);
    offset += chunk.length;
    if (offset > MAX_MANIFEST_BYTES) throw new Error(`The host's ${file} is larger than a manifest is.`);
    if (chunk.length < LAN_FETCH_MAX_BYTES) return Buffer.concat(chunks);
  }
}

/**
 * One file from the host in LAN_FETCH_MAX_BYTES requests, a couple in flight, appended to the
 * bytes already there; the whole is checked against its SHA-256. A resumed file that fails is
 * fetched once more whole, in case the bytes kept were the bad ones.
 */
async function fetchFromHost(
  host: HostFiles,
  file: CatalogFile,
  path: string,
  progress: (bytes: number) => void,
  signal: AbortSignal,
): Promise<void> {
  let offset = (await sizeOf(path)) ?? 0;
  if (offset > file.size) {
    progress(-file.size);
    offset = 0;
  }
  const hash = await hashOf(path, offset);
  const handle = await open(path, offset > 0 ? 'r+' : 'w', 0o600);
  try {
    await handle.truncate(offset);
    let next = offset;
    const inFlight: Promise<Buffer>[] = [];
    const ask = () => {
      const at = next;
      const length = Math.min(LAN_FETCH_MAX_BYTES, file.size - at);
      next += length;
      const chunk = host.read(file.name, at, length).then((bytes) => {
        if (bytes.length !== length) throw new Error(`The host sent ${bytes.length} of ${length} bytes of ${file.name}.`);
        return bytes;
      });
      chunk.catch(() => undefined); // awaited in turn; one failing first must not leave this one unhandled
      inFlight.push(chunk);
    };
    for (let written = offset; written < file.size;) {
      signal.throwIfAborted();
      while (inFlight.length < IN_FLIGHT && next < file.size) ask();
      const chunk = await inFlight.shift()!;
      hash.update(chunk);
      await handle.write(chunk, 0, chunk.length, written);
      written += chunk.length;
      progress(chunk.length);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (hash.digest('hex') === file.sha256.toLowerCase()) return;
  await rm(path, { force: true });
  progress(-file.size);
  if (offset > 0) return fetchFromHost(host, file, path, progress, signal);
  throw new Error(`the host's ${file.name} does not match its SHA-256`);
}

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => null,
  );
