import { createSHA256 } from 'hash-wasm';

/** Bytes read and hashed at a time: large enough to keep the hasher busy, small enough that a 10 GiB file never sits in memory. */
export const HASH_CHUNK_BYTES = 4 * 1024 * 1024;

/** The part of hash-wasm's hasher used here. */
export interface StreamingHasher {
  init(): unknown;
  update(data: Uint8Array): unknown;
  digest(outputType: 'hex'): string;
}

export interface HashOptions {
  chunkBytes?: number;
  /** Reads one slice of the file; a test can hand in its own. */
  readChunk?: (slice: Blob) => Promise<ArrayBuffer>;
  createHasher?: () => Promise<StreamingHasher>;
  /** Called after each chunk with the bytes hashed so far. */
  onProgress?: (bytesDone: number) => void;
  signal?: AbortSignal;
}

const readWhole = (slice: Blob): Promise<ArrayBuffer> => slice.arrayBuffer();

/**
 * The SHA-256 of a file in lowercase hex, read chunk by chunk with `file.slice()`: memory
 * stays at one chunk whatever the file's size. Stops with the signal's reason when aborted
 * (the file was removed from the list).
 */
export async function sha256OfFile(file: Blob, options: HashOptions = {}): Promise<string> {
  const { chunkBytes = HASH_CHUNK_BYTES, readChunk = readWhole, createHasher = createSHA256, onProgress, signal } = options;
  const hasher = await createHasher();
  hasher.init();
  for (let offset = 0; offset < file.size; offset += chunkBytes) {
    signal?.throwIfAborted();
    const end = Math.min(offset + chunkBytes, file.size);
    hasher.update(new Uint8Array(await readChunk(file.slice(offset, end))));
    onProgress?.(end);
  }
  signal?.throwIfAborted();
  return hasher.digest('hex');
}
