import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import {
  DESKTOP_FORMAT_ORDER,
  DESKTOP_FORMATS,
  type DesktopAppInfo,
  type DesktopDownload,
  type DesktopFormat,
  type DesktopPlatform,
  type DesktopRelease,
  desktopFileName,
} from '@meshwork/contracts';
import { notFound } from '../../platform/domain/errors';
import { type BuiltInFile, type BuiltInRelease, BuiltInReleases } from './built-in-releases';
import { CatalogContext, storageUnavailable } from './catalog-context';
import { CatalogQueries, type ReleaseWithFiles } from './catalog.query';

/** The built-in release's id in the console, and the `ref` its downloads are recorded under. */
export const BUILT_IN = 'built-in';

/** A file customers get now for its format: a staff release's, else the installation's own. */
export type Offer = { platform: DesktopPlatform; format: DesktopFormat; version: string; size: number } & (
  { source: 'staff'; releaseId: string; objectKey: string } | { source: 'built-in'; file: BuiltInFile }
);

const versionParts = (version: string) => version.split('.').map(Number);

/** Newer version first; within a version, the format's place (an installer before an archive). */
function better(a: Offer, b: Offer): number {
  const [x, y] = [versionParts(a.version), versionParts(b.version)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
  return DESKTOP_FORMAT_ORDER.indexOf(a.format) - DESKTOP_FORMAT_ORDER.indexOf(b.format);
}

const downloadUrl = (offer: Offer) => `/api/v1/downloads/desktop-app/${desktopFileName(offer.version, offer.format)}`;

function toDownload(offer: Offer): DesktopDownload {
  return {
    platform: offer.platform,
    format: offer.format,
    label: DESKTOP_FORMATS[offer.format].label,
    version: offer.version,
    file_name: desktopFileName(offer.version, offer.format),
    size: offer.size,
    download_url: downloadUrl(offer),
  };
}

const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 100) / 100;

/**
 * What customers can download, and the releases as the console shows them. For each platform
 * and format, customers get the newest active stable staff release that has it, else the
 * file this installation built (see BuiltInReleases).
 */
@Injectable()
export class DesktopReleases {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly queries: CatalogQueries,
    private readonly builtIns: BuiltInReleases,
  ) {}

  /** Every file offered now, in format order (Windows first). */
  async offers(builtIn?: BuiltInRelease | null): Promise<Offer[]> {
    const [staff, own] = await Promise.all([this.queries.currentStaffFiles(), builtIn === undefined ? this.builtIns.current() : builtIn]);
    return DESKTOP_FORMAT_ORDER.flatMap((format): Offer[] => {
      const row = staff.find((f) => f.format === format);
      if (row)
        return [
          {
            source: 'staff',
            platform: row.platform,
            format,
            version: row.release.version,
            size: Number(row.size),
            releaseId: row.release_id,
            objectKey: row.object_key,
          },
        ];
      const file = own?.files.find((f) => f.format === format);
      return file ? [{ source: 'built-in', platform: file.platform, format, version: own!.version, size: file.size, file }] : [];
    });
  }

  /**
   * GET /downloads/desktop-app-info/: every file, and the best one for `platform` (the newest,
   * an installer before an archive), or any platform's best when it has none. Null: nothing at all.
   */
  async info(platform: DesktopPlatform = 'windows'): Promise<DesktopAppInfo | null> {
    const offers = await this.offers();
    if (offers.length === 0) return null;
    const mine = offers.filter((o) => o.platform === platform);
    const best = [...(mine.length > 0 ? mine : offers)].sort(better)[0]!;
    return { version: best.version, download_url: downloadUrl(best), downloads: offers.map(toDownload) };
  }

  /** The current file of `format` and its bytes, opened now (so a missing file answers before anything is recorded). */
  async open(format: DesktopFormat): Promise<{ offer: Offer; fileName: string; body: Readable }> {
    const offer = (await this.offers()).find((o) => o.format === format);
    if (!offer) throw notFound(`No ${DESKTOP_FORMATS[format].label} is available for download.`);
    const body =
      offer.source === 'staff'
        ? await this.catalog.storage.read(offer.objectKey).catch(() => {
            throw storageUnavailable();
          })
        : await this.builtIns.open(offer.file);
    if (!body) throw notFound(`No ${DESKTOP_FORMATS[format].label} is available for download.`);
    return { offer, fileName: desktopFileName(offer.version, offer.format), body };
  }

  /** The console's list: the built-in release (when there is one) first, then staff releases, newest first. */
  async list(): Promise<DesktopRelease[]> {
    const [rows, builtIn] = await Promise.all([this.queries.releases(), this.builtIns.current()]);
    const offers = await this.offers(builtIn);
    const staff = rows.map((row) => this.toRelease(row, offers));
    return builtIn ? [await this.builtInRelease(builtIn, offers), ...staff] : staff;
  }

  /** One staff release as the console shows it. */
  async release(version: string): Promise<DesktopRelease | null> {
    const row = await this.queries.release(version);
    return row ? this.toRelease(row, await this.offers()) : null;
  }

  private toRelease(row: ReleaseWithFiles, offers: Offer[]): DesktopRelease {
    const current = (objectKey: string) => offers.some((o) => o.source === 'staff' && o.objectKey === objectKey);
    return {
      id: row.id,
      version: row.version,
      releaseDate: new Date(row.released_at).toISOString(),
      fileSize: megabytes(row.files.reduce((sum, f) => sum + Number(f.size), 0)),
      isActive: row.is_active,
      releaseNotes: row.release_notes,
      downloadCount: row.downloads,
      isStable: row.is_stable,
      builtIn: false,
      files: row.files.map((f) => ({
        platform: f.platform,
        format: f.format,
        label: f.format ? DESKTOP_FORMATS[f.format].label : 'Another kind of file (not offered)',
        fileName: f.file_name,
        size: Number(f.size),
        sha256: f.sha256,
        current: current(f.object_key),
      })),
      skipped: [],
    };
  }

  private async builtInRelease(builtIn: BuiltInRelease, offers: Offer[]): Promise<DesktopRelease> {
    const current = (file: string) => offers.some((o) => o.source === 'built-in' && o.file.file === file);
    return {
      id: BUILT_IN,
      version: builtIn.version,
      releaseDate: builtIn.builtAt.toISOString(),
      fileSize: megabytes(builtIn.files.reduce((sum, f) => sum + f.size, 0)),
      // Always offered where no staff release has the same kind of file.
      isActive: true,
      isStable: true,
      releaseNotes: 'Built by this installation.',
      downloadCount: await this.queries.desktopDownloads(BUILT_IN, builtIn.version),
      builtIn: true,
      files: builtIn.files.map((f) => ({
        platform: f.platform,
        format: f.format,
        label: DESKTOP_FORMATS[f.format].label,
        fileName: f.file,
        size: f.size,
        sha256: f.sha256,
        current: current(f.file),
      })),
      skipped: builtIn.skipped,
    };
  }
}
