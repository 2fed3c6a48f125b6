import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DownloadLink } from '@meshwork/contracts';
import { notFound } from '../../platform/domain/errors';
import { allowedModel } from './allowed-model';
import { CatalogContext, storageUnavailable } from './catalog-context';
import { CatalogQueries } from './catalog.query';

/** How long a model file's download link lasts. */
const LINK_SECONDS = 15 * 60;

export class DownloadModelFile {
  constructor(
    readonly userId: string,
    readonly planId: string,
    readonly modelName: string,
    readonly fileName: string,
    readonly at: Date,
  ) {}
}

/**
 * A short-lived presigned link to one file of a model the user's plan allows (HTTP Range
 * works on it, so a broken download resumes). The download is recorded, and shows in the
 * user's history by the time the link is answered.
 */
@CommandHandler(DownloadModelFile)
export class DownloadModelFileHandler implements ICommandHandler<DownloadModelFile, DownloadLink> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly queries: CatalogQueries,
  ) {}

  async execute({ userId, planId, modelName, fileName, at }: DownloadModelFile): Promise<DownloadLink> {
    const model = await allowedModel(this.queries, planId, modelName);
    const file = model.files.find((f) => f.name === fileName);
    if (!file) throw notFound();
    const url = await this.catalog.storage.downloadUrl(`models/${model.id}/${file.name}`, LINK_SECONDS, file.name).catch(() => {
      throw storageUnavailable();
    });
    const recorded = await this.catalog.downloads.execute(userId, {
      type: 'RecordDownload',
      at,
      downloadId: randomUUID(),
      kind: 'model',
      ref: model.id,
      version: `${model.name}@${model.version}`,
      fileName: file.name,
      size: file.size,
    });
    await this.catalog.caughtUp(recorded.position);
    return { url, expires_at: new Date(at.getTime() + LINK_SECONDS * 1000).toISOString(), size: file.size, sha256: file.sha256 };
  }
}
