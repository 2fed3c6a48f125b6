import { createHash } from 'node:crypto';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { uploadMessages, type UploadResponse } from '@meshwork/contracts';
import { ruleBroken } from '../../platform/domain/errors';
import type { StoredFile } from '../domain/model.decider';
import { AbortResumableUpload } from './abort-resumable-upload.handler';
import { CatalogContext } from './catalog-context';
import { PublishModel } from './publish-model.handler';
import { ResumableUploads } from './resumable-uploads';
import { type FileError, rejected, storageOrIncomplete } from './upload-checks';

export class CompleteResumableUpload {
  constructor(
    readonly uploadId: string,
    readonly at: Date,
  ) {}
}

/**
 * Resumable uploads, step 3: joins each file's parts, then reads it back to check its size
 * and SHA-256 (the same checks as the simple upload); publishes the model, or removes
 * everything. Missing parts leave the upload open, to be finished and completed again.
 */
@CommandHandler(CompleteResumableUpload)
export class CompleteResumableUploadHandler implements ICommandHandler<CompleteResumableUpload, UploadResponse> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly uploads: ResumableUploads,
    private readonly commands: CommandBus,
  ) {}

  async execute({ uploadId, at }: CompleteResumableUpload): Promise<UploadResponse> {
    const session = await this.uploads.session(uploadId);
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
      await this.commands.execute(new AbortResumableUpload(uploadId, 'checksum mismatch', at));
      throw rejected('File validation failed.', problems);
    }
    await this.uploads.end(uploadId);
    return this.commands.execute(new PublishModel(session.modelId, stored, at));
  }
}
