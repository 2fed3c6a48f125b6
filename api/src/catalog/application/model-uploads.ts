import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { AsyncResource } from 'node:async_hooks';
import { type Readable, Transform } from 'node:stream';
import { Injectable } from '@nestjs/common';
import busboy from 'busboy';
import type { Request } from 'express';
import type { z } from 'zod';
import {
  ResumableUploadStart,
  type ResumableUpload,
  UPLOAD_LIMITS,
  UploadFields,
  uploadMessages,
  type UploadResponse,
} from '../../../../contracts/src/catalog/catalog.contract';
import { DomainError, conflict, notFound, ruleBroken } from '../../platform/domain/errors';
import { UniqueValueTakenError } from '../../platform/event-store/event-store.errors';
import { ValidationFailed, ZodPipe } from '../../platform/http/validation';
import type { ModelDescription, StoredFile } from '../domain/model.decider';
import { CatalogContext, storageUnavailable } from './catalog-context';
import { ModelPlans } from './model-plans';
import { isUuid } from '../../../../contracts/src/common/fields';

type FileError = { file: string; error: string };

/** Spec section 9's size display: Bytes to TB in steps of 1024, two decimals at most. */
export function formatSize(bytes: number): string {
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Math.round(value * 100) / 100} ${units[unit]}`;
}

/** The per-file checks of spec section 5, in the order the console applies them. */
export function fileProblem(name: string, size: number | null, seen: Set<string>): string | null {
  const ext = path.extname(name).toLowerCase();
  if (size !== null && size > UPLOAD_LIMITS.maxFileBytes) return uploadMessages.fileTooLarge(formatSize(UPLOAD_LIMITS.maxFileBytes));
  if (!(UPLOAD_LIMITS.extensions as readonly string[]).includes(ext)) return uploadMessages.fileType(ext || '(none)');
  if (seen.has(name)) return uploadMessages.duplicate;
  return null;
}

const rejected = (message: string, validationErrors: FileError[] = []) =>
  new ValidationFailed({ message, ...(validationErrors.length ? { validation_errors: validationErrors } : {}) });

/** Multipart text fields are text: the JSON ones are parsed before the schema sees them. */
function parseFields(fields: Record<string, string>): z.output<typeof UploadFields> {
  const json = (name: string, fallback: unknown) => {
    if (fields[name] === undefined || fields[name] === '') return fallback;
    try {
      return JSON.parse(fields[name]!) as unknown;
    } catch {
      throw new ValidationFailed({ message: `${name} must be JSON text`, errors: { [name]: [`${name} must be JSON text`] } });
    }
  };
  return new ZodPipe(UploadFields).transform({ ...fields, allowed_plans: json('allowed_plans', []), checksums: json('checksums', {}) });
}

function describe(fields: Omit<z.output<typeof UploadFields>, 'checksums' | 'allowed_plans'>): ModelDescription {
  return {
    name: fields.name,
    displayName: fields.display_name,
    description: fields.description,
    version: fields.version,
    parameters: fields.parameters,
    architecture: fields.architecture,
  };
}

/** Counts and hashes the bytes passing through; fails the stream past the total limit. */
class Measure extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;

  constructor(private readonly allowed: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.bytes += chunk.length;
    if (this.bytes > this.allowed) return done(new TotalTooLarge());
    this.hash.update(chunk);
    done(null, chunk);
  }
}

class TotalTooLarge extends Error {}

/**
 * Model uploads, all-or-nothing: a model becomes visible only once every file is stored
 * and matches its declared SHA-256; any failure (bad file, mismatch, dropped connection,
 * storage down) removes what was written, now or, if storage is unreachable, by the
 * sweeper as soon as it answers again.
 */
@Injectable()
export class ModelUploads {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly plans: ModelPlans,
  ) {}

  /**
   * POST /models/admin/upload/: the text fields come first, then the files, each streamed
   * to storage as it arrives (memory stays flat whatever the size) while being hashed.
   */
  fromMultipart(request: Request, at: Date): Promise<UploadResponse> {
    return new Promise<UploadResponse>((resolve, reject) => {
      const fields: Record<string, string> = {};
      let model: { modelId: string; fields: z.output<typeof UploadFields> } | null = null;
      let fatal: unknown = null;
      const problems: FileError[] = [];
      const stored: StoredFile[] = [];
      const seen = new Set<string>();
      let total = 0;
      let work = Promise.resolve();
      let receiving: (NodeJS.ReadableStream & { destroy(error?: Error): void }) | null = null;
      let finished = false;

      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: request.headers,
          limits: { fileSize: UPLOAD_LIMITS.maxFileBytes, fieldSize: 1024 * 1024, fields: 50, files: 1000 },
        });
      } catch {
        reject(rejected('Send the model as multipart/form-data.'));
        return;
      }

      parser.on('field', (name, value) => {
        fields[name] = value;
      });

      // busboy's events fire outside the request's async context: bind them to it, so the
      // events they append carry the staff member, ip and correlation id.
      parser.on(
        'file',
        AsyncResource.bind((_field: string, stream: Readable & { truncated?: boolean }, info: busboy.FileInfo) => {
          receiving = stream;
          // The body can end inside this file before its turn comes (files are stored one at a
          // time): note it now, or the stream's 'error' would find no listener and end the process.
          let broken: Error | null = null;
          stream.on('error', (error: Error) => (broken = error));
          work = work.then(async () => {
            if (fatal) return void stream.resume();
            try {
              model ??= await this.start(fields, at);
              const name = path.basename(info.filename ?? '');
              const problem =
                fileProblem(name, null, seen) ?? (model.fields.checksums[name] ? null : uploadMessages.missingChecksums([name]));
              seen.add(name);
              if (problem) {
                problems.push({ file: name, error: problem });
                return void stream.resume();
              }
              const key = `models/${model.modelId}/${name}`;
              await this.catalog.writing(model.modelId, [key]);
              const measure = new Measure(UPLOAD_LIMITS.maxTotalBytes - total);
              let truncated = false;
              stream.on('limit', () => (truncated = true));
              stream.on('error', (error: Error) => measure.destroy(error));
              if (broken) throw broken as Error;
              try {
                await this.catalog.storage.put(key, stream.pipe(measure));
              } catch (error) {
                stored.push({ name, size: measure.bytes, sha256: '', partIndex: -1, objectKey: key }); // written in part: discard it too
                if (error instanceof TotalTooLarge) {
                  problems.push({ file: name, error: uploadMessages.totalTooLarge(formatSize(UPLOAD_LIMITS.maxTotalBytes)) });
                  fatal ??= rejected('File validation failed.', problems);
                  return void stream.resume();
                }
                throw error;
              }
              total += measure.bytes;
              const sha256 = measure.hash.digest('hex');
              stored.push({ name, size: measure.bytes, sha256, partIndex: stored.length, objectKey: key });
              if (truncated) problems.push({ file: name, error: uploadMessages.fileTooLarge(formatSize(UPLOAD_LIMITS.maxFileBytes)) });
              else if (sha256 !== model.fields.checksums[name]!.toLowerCase())
                problems.push({ file: name, error: uploadMessages.checksumMismatch });
            } catch (error) {
              fatal ??= error;
              stream.resume();
            }
          });
        }),
      );

      const finish = async (streamError: unknown) => {
        await work;
        const failure = fatal ?? streamError ?? (problems.length ? rejected('File validation failed.', problems) : null);
        const started = model as { modelId: string; fields: z.output<typeof UploadFields> } | null;
        if (!failure && !started) throw rejected(uploadMessages.fileRequired);
        if (failure) {
          if (started) await this.fail(started.modelId, started.fields.name, stored, reason(failure), at);
          throw failure instanceof ValidationFailed || failure instanceof DomainError ? failure : storageOrIncomplete(failure, streamError);
        }
        return this.publish(started!.modelId, started!.fields, stored, at);
      };

      const settle = (streamError: unknown) => {
        if (finished) return;
        finished = true;
        finish(streamError).then(resolve, reject);
      };
      parser.on(
        'close',
        AsyncResource.bind(() => settle(null)),
      );
      parser.on(
        'error',
        AsyncResource.bind((error: unknown) => settle(error)),
      );
      // A dropped connection ends the body early: fail the file being received, then the form.
      request.once('close', () => {
        if (request.complete) return;
        const error = new Error('connection closed before the upload finished');
        receiving?.destroy(error);
        parser.destroy(error);
      });
      request.pipe(parser);
    });
  }

  /** Resumable uploads, step 1: claims the name and opens one multipart upload per file. */
  async startResumable(body: z.output<typeof ResumableUploadStart>, at: Date): Promise<ResumableUpload> {
    const seen = new Set<string>();
    const problems: FileError[] = [];
    let total = 0;
    for (const file of body.files) {
      const problem = fileProblem(file.name, file.size, seen);
      seen.add(file.name);
      total += file.size;
      if (problem) problems.push({ file: file.name, error: problem });
      else if (total > UPLOAD_LIMITS.maxTotalBytes)
        problems.push({ file: file.name, error: uploadMessages.totalTooLarge(formatSize(UPLOAD_LIMITS.maxTotalBytes)) });
    }
    if (problems.length) throw rejected('File validation failed.', problems);
    const { modelId } = await this.start({}, at, body);
    const partSize = partSizeFor(Math.max(...body.files.map((f) => f.size)));
    const keys = body.files.map((f) => `models/${modelId}/${f.name}`);
    await this.catalog.writing(modelId, keys);
    try {
      const files = [];
      for (const [i, file] of body.files.entries()) {
        files.push({
          ...file,
          sha256: file.sha256.toLowerCase(),
          key: keys[i]!,
          storageUploadId: await this.catalog.storage.startMultipart(keys[i]!),
        });
      }
      const uploadId = randomUUID();
      await this.catalog.database.pool.query(
        'INSERT INTO catalog_resumable_uploads (id, model_id, part_size, files) VALUES ($1, $2, $3, $4)',
        [uploadId, modelId, partSize, JSON.stringify(files)],
      );
      return this.resumable(uploadId);
    } catch (error) {
      await this.fail(
        modelId,
        body.name,
        keys.map((objectKey) => ({ objectKey })),
        'storage unavailable',
        at,
      );
      throw storageOrIncomplete(error, null);
    }
  }

  /** Where the upload stands: which parts of which file storage already holds. */
  async resumable(uploadId: string): Promise<ResumableUpload> {
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

  async partUrl(uploadId: string, fileName: string, part: number): Promise<{ url: string; expires_at: string }> {
    const session = await this.session(uploadId);
    const file = session.files.find((f) => f.name === fileName);
    if (!file) throw ruleBroken('This file is not part of the upload.', 'file');
    if (part > Math.ceil(file.size / session.partSize)) throw ruleBroken('The file has no such part.', 'part');
    const seconds = 3600;
    const url = await this.catalog.storage.partUrl(file.key, file.storageUploadId, part, seconds);
    return { url, expires_at: new Date(Date.now() + seconds * 1000).toISOString() };
  }

  /**
   * Step 3: joins each file's parts, then reads it back to check its size and SHA-256
   * (the same checks as the simple upload); publishes the model, or removes everything.
   */
  async completeResumable(uploadId: string, at: Date): Promise<UploadResponse> {
    const session = await this.session(uploadId);
    const { state } = await this.catalog.models.load(session.modelId);
    if (state.status !== 'processing') throw ruleBroken('This upload has already ended.');
    const problems: FileError[] = [];
    const stored: StoredFile[] = [];
    try {
      for (const [partIndex, file] of session.files.entries()) {
        const parts = await this.catalog.storage.listParts(file.key, file.storageUploadId);
        const expected = Math.ceil(file.size / session.partSize);
        if (parts.length !== expected) {
          problems.push({ file: file.name, error: uploadMessages.fileIncomplete });
          continue;
        }
        await this.catalog.storage.completeMultipart(file.key, file.storageUploadId, parts);
        const hash = createHash('sha256');
        let size = 0;
        for await (const chunk of await this.catalog.storage.read(file.key)) {
          hash.update(chunk as Buffer);
          size += (chunk as Buffer).length;
        }
        const sha256 = hash.digest('hex');
        if (size !== file.size) problems.push({ file: file.name, error: uploadMessages.fileIncomplete });
        else if (sha256 !== file.sha256) problems.push({ file: file.name, error: uploadMessages.checksumMismatch });
        stored.push({ name: file.name, size, sha256, partIndex, objectKey: file.key });
      }
    } catch (error) {
      throw storageOrIncomplete(error, null); // nothing decided yet: the upload can be completed again
    }
    if (problems.length > 0) {
      // Incomplete files may still be finished and completed again; a mismatch never can.
      if (problems.every((p) => p.error === uploadMessages.fileIncomplete)) throw rejected('Some parts are still missing.', problems);
      await this.abort(uploadId, 'checksum mismatch', at);
      throw rejected('File validation failed.', problems);
    }
    await this.catalog.database.pool.query('DELETE FROM catalog_resumable_uploads WHERE id = $1', [uploadId]);
    return this.publish(session.modelId, null, stored, at);
  }

  /** Cancels a resumable upload and removes whatever was stored for it. */
  async abort(uploadId: string, why: string, at: Date): Promise<void> {
    const session = await this.session(uploadId);
    for (const file of session.files) await this.catalog.storage.abortMultipart(file.key, file.storageUploadId).catch(() => undefined);
    await this.catalog.database.pool.query('DELETE FROM catalog_resumable_uploads WHERE id = $1', [uploadId]);
    const { state } = await this.catalog.models.load(session.modelId);
    await this.fail(
      session.modelId,
      state.status === 'none' ? '' : state.model.name,
      session.files.map((f) => ({ objectKey: f.key })),
      why,
      at,
    );
  }

  private async session(uploadId: string) {
    if (!isUuid(uploadId)) throw notFound();
    const { rows } = await this.catalog.database.pool.query<{
      model_id: string;
      part_size: string;
      files: { name: string; size: number; sha256: string; key: string; storageUploadId: string }[];
    }>('SELECT model_id, part_size, files FROM catalog_resumable_uploads WHERE id = $1', [uploadId]);
    if (!rows[0]) throw notFound();
    return { modelId: rows[0].model_id, partSize: Number(rows[0].part_size), files: rows[0].files };
  }

  /** Claims the model's name and records the upload as started (status processing). */
  private async start(
    fields: Record<string, string>,
    at: Date,
    resumable?: z.output<typeof ResumableUploadStart>,
  ): Promise<{ modelId: string; fields: z.output<typeof UploadFields> }> {
    const parsed = resumable ? { ...resumable, checksums: {} } : parseFields(fields);
    await this.plans.check(parsed.allowed_plans, 'allowed_plans');
    const modelId = randomUUID();
    try {
      await this.catalog.models.execute(
        modelId,
        { type: 'StartUpload', at, modelId, model: describe(parsed), allowedPlans: parsed.allowed_plans },
        { unique: () => ({ claim: [this.catalog.nameKey(parsed.name)] }) },
      );
    } catch (error) {
      if (error instanceof UniqueValueTakenError)
        throw new ValidationFailed({
          message: 'A model with this name already exists.',
          errors: { name: ['A model with this name already exists.'] },
        });
      throw error;
    }
    return { modelId, fields: parsed };
  }

  private async publish(
    modelId: string,
    fields: z.output<typeof UploadFields> | null,
    stored: StoredFile[],
    at: Date,
  ): Promise<UploadResponse> {
    const { position, state } = await this.catalog.models.execute(modelId, { type: 'Publish', at, files: stored });
    await this.catalog.kept(stored.map((f) => f.objectKey));
    await this.catalog.caughtUp(position);
    if (state.status === 'none' || state.status === 'failed' || state.status === 'deleted')
      throw conflict('The upload ended before it could be published.');
    return {
      model_id: modelId,
      model_name: fields?.name ?? state.model.name,
      display_name: fields?.display_name ?? state.model.displayName,
      status: 'active',
      total_size: stored.reduce((sum, f) => sum + f.size, 0),
      parts_count: stored.length,
      allowed_plans: state.allowedPlans,
    };
  }

  private async fail(modelId: string, name: string, written: { objectKey: string }[], why: string, at: Date): Promise<void> {
    const keys = written.map((f) => f.objectKey);
    await this.catalog.discard(keys);
    const { position } = await this.catalog.models.execute(
      modelId,
      { type: 'FailUpload', at, reason: why, objectKeys: keys },
      { unique: () => (name ? { release: [this.catalog.nameKey(name)] } : {}) },
    );
    await this.catalog.caughtUp(position);
  }
}

/** Parts of at least 16 MiB, and at most 10,000 of them (S3's limit) per file. */
function partSizeFor(largestFile: number): number {
  const mib = 1024 * 1024;
  return Math.max(16 * mib, Math.ceil(largestFile / 10_000 / mib) * mib);
}

function reason(failure: unknown): string {
  if (failure instanceof ValidationFailed)
    return failure.body.validation_errors?.map((p) => `${p.file}: ${p.error}`).join('; ') || failure.body.message;
  return failure instanceof Error ? failure.message : String(failure);
}

/** A failure that is not the file's fault: storage down (503) or the body cut short (400). */
function storageOrIncomplete(error: unknown, streamError: unknown): Error {
  if (streamError) return rejected('The upload was interrupted before it finished. Nothing was saved; please try again.');
  return error instanceof DomainError || error instanceof ValidationFailed ? error : storageUnavailable();
}
