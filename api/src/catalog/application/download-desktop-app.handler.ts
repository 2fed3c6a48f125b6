import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingQueries } from '../../billing';
import { forbidden, notFound } from '../../platform/domain/errors';
import { CatalogContext, storageUnavailable } from './catalog-context';
import { CatalogQueries, type ReleaseRow } from './catalog-queries';

export class DownloadDesktopApp {
  constructor(
    readonly userId: string,
    readonly at: Date,
  ) {}
}

/**
 * The current desktop installer, when the user's plan allows downloads: its release and
 * its bytes, opened from storage before the download is recorded (so a storage failure
 * records nothing). The download shows in the user's history by the time this answers.
 */
@CommandHandler(DownloadDesktopApp)
export class DownloadDesktopAppHandler implements ICommandHandler<DownloadDesktopApp, { release: ReleaseRow; body: Readable }> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly queries: CatalogQueries,
    private readonly billing: BillingQueries,
  ) {}

  async execute({ userId, at }: DownloadDesktopApp): Promise<{ release: ReleaseRow; body: Readable }> {
    const plan = await this.billing.planInfo(userId);
    if (!plan.download_info.download_access) throw forbidden('Your plan does not include the desktop app. Upgrade to download it.');
    const release = await this.queries.currentRelease();
    if (!release) throw notFound('No version available for download');
    const body = await this.catalog.storage.read(release.object_key).catch(() => {
      throw storageUnavailable();
    });
    try {
      const recorded = await this.catalog.downloads.execute(userId, {
        type: 'RecordDownload',
        at,
        downloadId: randomUUID(),
        kind: 'desktop',
        ref: release.id,
        version: release.version,
        fileName: release.file_name,
        size: Number(release.size),
      });
      await this.catalog.caughtUp(recorded.position);
    } catch (error) {
      body.destroy(); // nobody will read it
      throw error;
    }
    return { release, body };
  }
}
