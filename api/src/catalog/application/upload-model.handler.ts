import { AsyncResource } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import busboy from 'busboy';
import type { Request } from 'express';
import type { z } from 'zod';
import { UPLOAD_LIMITS, UploadFields, uploadMessages, type UploadResponse } from '@meshwork/contracts';
import { DomainError } from '../../platform/domain/errors';
import { ValidationFailed, ZodPipe } from '../../platform/http/validation';
import type { StoredFile } from '../domain/model.decider';
import { CatalogContext } from './catalog-context';
import { FailModelUpload } from './fail-model-upload.handler';
import { PublishModel } from './publish-model.handler';
import { StartModelUpload } from './start-model-upload.handler';
import { type FileError, fileProblem, formatSize, rejected, storageOrIncomplete } from './upload-checks';

export class UploadModel {
  constructor(
    /** The multipart body: the text fields first, then the files. */
    readonly request: Request,
    readonly at: Date,
  ) {}
}

type Started = { modelId: string; fields: z.output<typeof UploadFields> };

/**
 * POST /models/admin/upload/, all-or-nothing: the text fields come first, then the files,
 * each streamed to storage as it arrives (memory stays flat whatever the size) while being
 * hashed. The model becomes visible only once every file is stored and matches its declared
 * SHA-256; any failure (bad file, mismatch, dropped connection, storage down) fails the
 * upload, which removes what was written. The model's own steps (start, publish, fail) are
 * the commands the resumable upload sends too.
 */
@CommandHandler(UploadModel)
export class UploadModelHandler implements ICommandHandler<UploadModel, UploadResponse> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly commands: CommandBus,
  ) {}

  execute({ request, at }: UploadModel): Promise<UploadResponse> {
    return new Promise<UploadResponse>((resolve, reject) => {
      const fields: Record<string, string> = {};
      let model: Started | null = null;
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

      const finish = async (streamError: unknown): Promise<UploadResponse> => {
        await work;
        const failure = fatal ?? streamError ?? (problems.length ? rejected('File validation failed.', problems) : null);
        const started = model as Started | null;
        if (!failure && !started) throw rejected(uploadMessages.fileRequired);
        if (failure) {
          if (started) {
            const keys = stored.map((f) => f.objectKey);
            await this.commands.execute(new FailModelUpload(started.modelId, started.fields.name, keys, reason(failure), at));
          }
          throw failure instanceof ValidationFailed || failure instanceof DomainError ? failure : storageOrIncomplete(failure, streamError);
        }
        return this.commands.execute(new PublishModel(started!.modelId, stored, at));
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

  /** Parses the text fields (they must all come before the first file) and starts the model. */
  private async start(fields: Record<string, string>, at: Date): Promise<Started> {
    const parsed = parseFields(fields);
    const modelId = await this.commands.execute<StartModelUpload, string>(new StartModelUpload(parsed, at));
    return { modelId, fields: parsed };
  }
}

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

/** Why the upload failed, for the model's ModelProcessingFailed event. */
function reason(failure: unknown): string {
  if (failure instanceof ValidationFailed)
    return failure.body.validation_errors?.map((p) => `${p.file}: ${p.error}`).join('; ') || failure.body.message;
  return failure instanceof Error ? failure.message : String(failure);
}
