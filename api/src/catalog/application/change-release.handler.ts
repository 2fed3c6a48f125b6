import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DesktopRelease } from '@meshwork/contracts';
import { notFound } from '../../platform/domain/errors';
import { CatalogContext } from './catalog-context';
import { CatalogQueries } from './catalog-queries';

export class ChangeRelease {
  constructor(
    readonly version: string,
    /** Only the flags given change. */
    readonly changes: { is_stable?: boolean; is_active?: boolean },
    readonly at: Date,
  ) {}
}

/** Staff mark a desktop release stable or not, active or not; answers the release as the read model shows it. */
@CommandHandler(ChangeRelease)
export class ChangeReleaseHandler implements ICommandHandler<ChangeRelease, DesktopRelease> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly queries: CatalogQueries,
  ) {}

  async execute({ version, changes, at }: ChangeRelease): Promise<DesktopRelease> {
    const { releases } = this.catalog;
    let position = 0;
    if (changes.is_stable !== undefined)
      position = (await releases.execute(version, { type: 'MarkStable', at, stable: changes.is_stable })).position;
    if (changes.is_active !== undefined)
      position = Math.max(position, (await releases.execute(version, { type: 'SetActive', at, active: changes.is_active })).position);
    await this.catalog.caughtUp(position);
    const release = await this.queries.release(version);
    if (!release) throw notFound();
    return release;
  }
}
