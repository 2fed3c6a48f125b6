import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CatalogContext } from './catalog-context';
import { FailModelUpload } from './fail-model-upload.handler';
import { ResumableUploads } from './resumable-uploads';

export class AbortResumableUpload {
  constructor(
    readonly uploadId: string,
    /** Why, for the model's ModelProcessingFailed event: "cancelled", "checksum mismatch". */
    readonly reason: string,
    readonly at: Date,
  ) {}
}

/** Ends a resumable upload: its multipart uploads are aborted, and the model's upload fails, removing whatever was stored. */
@CommandHandler(AbortResumableUpload)
export class AbortResumableUploadHandler implements ICommandHandler<AbortResumableUpload, void> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly uploads: ResumableUploads,
    private readonly commands: CommandBus,
  ) {}

  async execute({ uploadId, reason, at }: AbortResumableUpload): Promise<void> {
    const session = await this.uploads.session(uploadId);
    for (const file of session.files) await this.catalog.storage.abortMultipart(file.key, file.storageUploadId).catch(() => undefined);
    await this.uploads.end(uploadId);
    const { state } = await this.catalog.models.load(session.modelId);
    const name = state.status === 'none' ? '' : state.model.name;
    const keys = session.files.map((f) => f.key);
    await this.commands.execute(new FailModelUpload(session.modelId, name, keys, reason, at));
  }
}
