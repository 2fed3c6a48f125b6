import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUuid, type ResumableUpload } from '@meshwork/contracts';
import { notFound, ruleBroken } from '../../platform/domain/errors';
import { CatalogContext } from './catalog-context';
import { storageOrIncomplete } from './upload-checks';

/** One file of a resumable upload: an S3 multipart upload under the model's key. */
export interface ResumableFile {
  name: string;
  size: number;
  sha256: string;
  key: string;
  storageUploadId: string;
}

export interface ResumableSession {
  modelId: string;
  partSize: number;
  files: ResumableFile[];
}

/** Parts of at least 16 MiB, and at most 10,000 of them (S3's limit) per file. */
export function partSizeFor(largestFile: number): number {
  const mib = 1024 * 1024;
  return Math.max(16 * mib, Math.ceil(largestFile / 10_000 / mib) * mib);
}

/**
 * Resumable uploads in progress (`catalog_resumable_uploads`): the browser sends each part
 * straight to storage by a presigned URL, so a dropped connection loses one part at most.
 * This is their bookkeeping and what can be read of them; starting, completing and
 * cancelling one are commands (start-, complete- and abort-resumable-upload.handler.ts).
 */
@Injectable()
export class ResumableUploads {
  constructor(private readonly catalog: CatalogContext) {}

  /** The session of an upload in progress; 404 when there is none (ended, or never started). */
  async session(uploadId: string): Promise<ResumableSession> {
    if (!isUuid(uploadId)) throw notFound();
    const { rows } = await this.catalog.database.pool.query<{ model_id: string; part_size: string; files: ResumableFile[] }>(
      'SELECT model_id, part_size, files FROM catalog_resumable_uploads WHERE id = $1',
      [uploadId],
    );
    if (!rows[0]) throw notFound();
    return { modelId: rows[0].model_id, partSize: Number(rows[0].part_size), files: rows[0].files };
  }

  /** Records a new session; answers its id. */
  async open(modelId: string, partSize: number, files: ResumableFile[]): Promise<string> {
    const uploadId = randomUUID();
    await this.catalog.database.pool.query(
      'INSERT INTO catalog_resumable_uploads (id, model_id, part_size, files) VALUES ($1, $2, $3, $4)',
      [uploadId, modelId, partSize, JSON.stringify(files)],
    );
    return uploadId;
  }

  async end(uploadId: string): Promise<void> {
    await this.catalog.database.pool.query('DELETE FROM catalog_resumable_uploads WHERE id = $1', [uploadId]);
  }

  /** Where the upload stands: which parts of which file storage already holds. */
  async status(uploadId: string): Promise<ResumableUpload> {
    const session = await this.session(uploadId);
    const files = [];
    for (const file of session.files) {
      const parts = await this.catalog.storage.listParts(file.key, file.storageUploadId).catch((error: unknown) => {
        throw storageOrIncomplete(error, null);
      });
      files.push({
        name: file.name,
        size: file.size,
        parts: Math.ceil(file.size / session.partSize),
        uploaded_parts: parts.map((p) => p.part),
      });
    }
    return { upload_id: uploadId, model_id: session.modelId, part_size: session.partSize, files };
  }

  /** A presigned PUT url for one part of one file, valid for an hour. */
  async partUrl(uploadId: string, fileName: string, part: number): Promise<{ url: string; expires_at: string }> {
    const session = await this.session(uploadId);
    const file = session.files.find((f) => f.name === fileName);
    if (!file) throw ruleBroken('This file is not part of the upload.', 'file');
    if (part > Math.ceil(file.size / session.partSize)) throw ruleBroken('The file has no such part.', 'part');
    const seconds = 3600;
    const url = await this.catalog.storage.partUrl(file.key, file.storageUploadId, part, seconds);
    return { url, expires_at: new Date(Date.now() + seconds * 1000).toISOString() };
  }
}
