import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { desktopFormatOf } from '@meshwork/contracts';
import { BillingQueries } from '../../billing';
import { forbidden, notFound } from '../../platform/domain/errors';
import { CatalogContext } from './catalog-context';
import { BUILT_IN, DesktopReleases } from './desktop-releases';

export class DownloadDesktopApp {
  constructor(
    readonly userId: string,
    /** The name asked for: its extension says which kind of file (Meshwork-Desktop-v2.1.0.deb). */
    readonly name: string,
    readonly at: Date,
  ) {}
}

/** The file served: the name to save it under, its size, and its bytes. */
export interface DesktopAppFile {
  fileName: string;
  size: number;
  body: Readable;
}

/**
 * The current desktop file of the kind the name asks for, when the user's plan allows
 * downloads: opened (from storage, or the installation's own folder) before the download is
 * recorded, so a missing file records nothing. The download shows in the user's history by
 * the time this answers.
 */
@CommandHandler(DownloadDesktopApp)
export class DownloadDesktopAppHandler implements ICommandHandler<DownloadDesktopApp, DesktopAppFile> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly releases: DesktopReleases,
    private readonly billing: BillingQueries,
  ) {}

  async execute({ userId, name, at }: DownloadDesktopApp): Promise<DesktopAppFile> {
    const plan = await this.billing.planInfo(userId);
    if (!plan.download_info.download_access) throw forbidden('Your plan does not include the desktop app. Upgrade to download it.');
    const format = desktopFormatOf(name);
    if (!format)
      throw notFound(`No desktop app file is called ${name}: ask for Meshwork-Desktop-v{version} with .exe, .zip, .deb or .tar.gz.`);
    const { offer, fileName, body } = await this.releases.open(format);
    try {
      const recorded = await this.catalog.downloads.execute(userId, {
        type: 'RecordDownload',
        at,
        downloadId: randomUUID(),
        kind: 'desktop',
        ref: offer.source === 'staff' ? offer.releaseId : BUILT_IN,
        version: offer.version,
        fileName,
        size: offer.size,
      });
      await this.catalog.caughtUp(recorded.position);
    } catch (error) {
      body.destroy(); // nobody will read it
      throw error;
    }
    return { fileName, size: offer.size, body };
  }
}
