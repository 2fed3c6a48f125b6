import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DesktopRelease } from '@meshwork/contracts';
import { notFound } from '../../platform/domain/errors';
import { CatalogContext } from './catalog-context';
import { DesktopReleases } from './desktop-releases';

export class ChangeRelease {
  constructor(
    readonly version: string,
    /** Only the flags given change: publishing is both true, withdrawing is_active false. */
    readonly changes: { is_stable?: boolean; is_active?: boolean },
    readonly at: Date,
  ) {}
}

/** Staff publish a desktop release, withdraw it, or set either flag; in one append. Answers the release as the console shows it. */
@CommandHandler(ChangeRelease)
export class ChangeReleaseHandler implements ICommandHandler<ChangeRelease, DesktopRelease> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly releases: DesktopReleases,
  ) {}

  async execute({ version, changes, at }: ChangeRelease): Promise<DesktopRelease> {
    const { position } = await this.catalog.releases.execute(version, {
      type: 'ChangeRelease',
      at,
      stable: changes.is_stable,
      active: changes.is_active,
    });
    await this.catalog.caughtUp(position);
    const release = await this.releases.release(version);
    if (!release) throw notFound();
    return release;
  }
}
