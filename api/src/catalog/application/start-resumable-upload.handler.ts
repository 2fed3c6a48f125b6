import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { z } from 'zod';
import { type ResumableUpload, type ResumableUploadStart, UPLOAD_LIMITS, uploadMessages } from '@meshwork/contracts';
import { CatalogContext } from './catalog-context';
import { FailModelUpload } from './fail-model-upload.handler';
import { partSizeFor, type ResumableFile, ResumableUploads } from './resumable-uploads';
import { StartModelUpload } from './start-model-upload.handler';
import { type FileError, fileProblem, formatSize, rejected, storageOrIncomplete } from './upload-checks';

export class StartResumableUpload {
  constructor(
    readonly upload: z.output<typeof ResumableUploadStart>,
    readonly at: Date,
  ) {}
}

/**
 * Resumable uploads, step 1: checks the files as the simple upload does, starts the model
 * (claiming its name) and opens one multipart upload per file. If storage cannot open
 * them, the model's upload fails at once and nothing is left.
 */
@CommandHandler(StartResumableUpload)
export class StartResumableUploadHandler implements ICommandHandler<StartResumableUpload, ResumableUpload> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly uploads: ResumableUploads,
    private readonly commands: CommandBus,
  ) {}

  async execute({ upload, at }: StartResumableUpload): Promise<ResumableUpload> {
    const seen = new Set<string>();
    const problems: FileError[] = [];
    let total = 0;
    for (const file of upload.files) {
      const problem = fileProblem(file.name, file.size, seen);
      seen.add(file.name);
      total += file.size;
      if (problem) problems.push({ file: file.name, error: problem });
      else if (total > UPLOAD_LIMITS.maxTotalBytes)
        problems.push({ file: file.name, error: uploadMessages.totalTooLarge(formatSize(UPLOAD_LIMITS.maxTotalBytes)) });
    }
    if (problems.length) throw rejected('File validation failed.', problems);
    const modelId = await this.commands.execute<StartModelUpload, string>(new StartModelUpload(upload, at));
    const partSize = partSizeFor(Math.max(...upload.files.map((f) => f.size)));
    const keys = upload.files.map((f) => `models/${modelId}/${f.name}`);
    await this.catalog.writing(modelId, keys);
    let uploadId: string;
    try {
      const files: ResumableFile[] = [];
      for (const [i, file] of upload.files.entries()) {
        const key = keys[i]!;
        files.push({ ...file, sha256: file.sha256.toLowerCase(), key, storageUploadId: await this.catalog.storage.startMultipart(key) });
      }
      uploadId = await this.uploads.open(modelId, partSize, files);
    } catch (error) {
      await this.commands.execute(new FailModelUpload(modelId, upload.name, keys, 'storage unavailable', at));
      throw storageOrIncomplete(error, null);
    }
    return this.uploads.status(uploadId);
  }
}
