import type { Readable } from 'node:stream';
import type { ComponentHealth } from '../health/component-health';

/** A part of a multipart upload that the storage holds. */
export interface StoredPart {
  part: number;
  etag: string;
  size: number;
}

/**
 * Where model files and installers live: S3 (MinIO) in full mode, a folder on local disk in
 * embedded mode. Writes stream, whatever the size; reads and large uploads go by short-lived
 * signed URLs (S3's own, or this api's for the local disk) so bytes need not pass through
 * the api, and downloads honour HTTP Range. The adapters are `s3-storage.ts` and
 * `local-disk-storage.ts`; `object-storage.factory.ts` picks one from the configuration.
 */
export interface ObjectStorage {
  health(): Promise<ComponentHealth>;
  /**
   * Stores the stream under `key`; the stream's errors abort the write, and a failed write
   * destroys the stream, so whatever feeds it stops rather than waiting to be read.
   */
  put(key: string, body: Readable): Promise<void>;
  /**
   * Writes a small object only if `key` holds none (write-once: never replaces one); answers
   * false when one was there already. The audit log's seal anchors rely on it.
   */
  putOnce(key: string, bytes: Buffer): Promise<boolean>;
  /** The object's size, or null when there is none. */
  size(key: string): Promise<number | null>;
  read(key: string): Promise<Readable>;
  /** Removes objects and any unfinished multipart uploads under them; missing ones are fine. */
  remove(keys: string[]): Promise<void>;
  /** A GET URL valid for `seconds`, answering Range requests, saving as `fileName`. */
  downloadUrl(key: string, seconds: number, fileName: string): Promise<string>;
  startMultipart(key: string): Promise<string>;
  /** A PUT URL for one part (numbered from 1), valid for `seconds`. */
  partUrl(key: string, uploadId: string, part: number, seconds: number): Promise<string>;
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;
  completeMultipart(key: string, uploadId: string, parts: StoredPart[]): Promise<void>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

export const OBJECT_STORAGE = Symbol('ObjectStorage');

/** Where the local-disk storage's signed URLs are answered (see storage.controller.ts). */
export const LOCAL_STORAGE_ROUTE = '/api/v1/storage';
