import { AsyncResource } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
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
import { fileProblem, formatSize, rejected, storageOrIncomplete } from './upload-checks';

export class UploadModel {
  constructor(
    /** The multipart body: text fields and files, in any order. */
    readonly request: Request,
    readonly at: Date,
  ) {}
}

/** A file of the form, in the order it came: refused as it came, or stored and hashed. */
type Received = { file: string; error: string } | { file: string; stored: StoredFile; truncated: boolean };

/**
 * POST /models/admin/upload/, all-or-nothing, its text fields and files in any order (the spec
 * lists `checksums` after `files`). Each file is streamed to storage as it arrives (memory stays
 * flat whatever the size) under the id the model will have, while being hashed; once the request
 * has ended the fields are read, the model started and every file checked against its declared
 * SHA-256. The model becomes visible only once every file is stored and matches; any failure
 * (bad fields, bad file, mismatch, dropped connection, storage down) removes what was written
 * (objects are recorded as pending before they are written, so a crash leaves them to the
 * sweeper). The model's own steps (start, publish, fail) are the commands the resumable upload
 * sends too.
 */
@CommandHandler(UploadModel)
export class UploadModelHandler implements ICommandHandler<UploadModel, UploadResponse> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly commands: CommandBus,
  ) {}

  execute({ request, at }: UploadModel): Promise<UploadResponse> {
    return new Promise<UploadResponse>((resolve, reject) => {
      const modelId = randomUUID();
      const fields: Record<string, string> = {};
      let fatal: unknown = null;
      const received: Received[] = [];
      /** Every object written, whole or in part: what a failure removes. */
      const written: string[] = [];
      const seen = new Set<string>();
      let total = 0;
      /** The files went over the total limit: the rest are not stored. */
      let overTotal = false;
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
            if (fatal || overTotal) return void stream.resume();
            try {
              const name = path.basename(info.filename ?? '');
              const problem = fileProblem(name, null, seen);
              seen.add(name);
              if (problem) {
                received.push({ file: name, error: problem });
                return void stream.resume();
              }
              const key = `models/${modelId}/${name}`;
              await this.catalog.writing(modelId, [key]);
              written.push(key);
              const measure = new Measure(UPLOAD_LIMITS.maxTotalBytes - total);
              let truncated = false;
              stream.on('limit', () => (truncated = true));
              stream.on('error', (error: Error) => measure.destroy(error));
              if (broken) throw broken as Error;
              try {
                await this.catalog.storage.put(key, stream.pipe(measure));
              } catch (error) {
                if (!(error instanceof TotalTooLarge)) throw error;
                received.push({ file: name, error: uploadMessages.totalTooLarge(formatSize(UPLOAD_LIMITS.maxTotalBytes)) });
                overTotal = true;
                return void stream.resume();
              }
              total += measure.bytes;
              const sha256 = measure.hash.digest('hex');
              const partIndex = received.filter((r) => 'stored' in r).length;
              received.push({ file: name, stored: { name, size: measure.bytes, sha256, partIndex, objectKey: key }, truncated });
            } catch (error) {
              fatal ??= error;
              stream.resume();
            }
          });
        }),
      );

      const finish = async (streamError: unknown): Promise<UploadResponse> => {
        await work;
        const cause = fatal ?? streamError;
        const failure =
          cause === null
            ? null
            : cause instanceof ValidationFailed || cause instanceof DomainError
              ? cause
              : storageOrIncomplete(cause, streamError);
        if (!failure && received.length === 0) throw rejected(uploadMessages.fileRequired);
        // The model is started once every field is known, even for a failed upload, so the
        // event log records the attempt and its reason; fields that never made sense start nothing.
        let parsed: z.output<typeof UploadFields>;
        try {
          parsed = parseFields(fields);
          await this.commands.execute<StartModelUpload, string>(new StartModelUpload(parsed, at, modelId));
        } catch (error) {
          await this.catalog.discard(written); // nothing names these objects but this request
          throw failure ?? error;
        }
        const problems = received.flatMap((r) => {
          const error = 'error' in r ? r.error : fileCheck(r, parsed.checksums);
          return error ? [{ file: r.file, error }] : [];
        });
        const refusal = failure ?? (problems.length ? rejected('File validation failed.', problems) : null);
        if (refusal) {
          await this.commands.execute(new FailModelUpload(modelId, parsed.name, written, reason(cause ?? refusal), at));
          throw refusal;
        }
        const stored = received.flatMap((r) => ('stored' in r ? [r.stored] : []));
        return this.commands.execute(new PublishModel(modelId, stored, at));
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
}

/** A stored file's verdict once the declared checksums are known: too large, undeclared or not matching. */
function fileCheck(file: Extract<Received, { stored: StoredFile }>, checksums: Record<string, string>): string | null {
  if (file.truncated) return uploadMessages.fileTooLarge(formatSize(UPLOAD_LIMITS.maxFileBytes));
  const declared = checksums[file.file];
  if (!declared) return uploadMessages.missingChecksums([file.file]);
  return file.stored.sha256 === declared.toLowerCase() ? null : uploadMessages.checksumMismatch;
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
