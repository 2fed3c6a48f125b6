import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CatalogContext } from './catalog-context';

export class FailModelUpload {
  constructor(
    readonly modelId: string,
    /** The model's name, to free it; '' when the upload never claimed one. */
    readonly name: string,
    /** Every object the upload may have written. */
    readonly objectKeys: string[],
    readonly reason: string,
    readonly at: Date,
  ) {}
}

/**
 * Ends an unfinished upload as failed: the model leaves the console and frees its name,
 * then its objects are removed (now, or by the sweeper if storage is down). The failure is
 * recorded before anything is removed, and nothing is removed when the upload had already
 * ended (published, or failed by a cancel or the sweeper racing this): a published model
 * keeps its files, and any object written meanwhile is the sweeper's once a day old.
 * Returns once the catalog read model shows it.
 */
@CommandHandler(FailModelUpload)
export class FailModelUploadHandler implements ICommandHandler<FailModelUpload, void> {
  constructor(private readonly catalog: CatalogContext) {}

  async execute({ modelId, name, objectKeys, reason, at }: FailModelUpload): Promise<void> {
    const { events, position } = await this.catalog.models.execute(
      modelId,
      { type: 'FailUpload', at, reason, objectKeys },
      { unique: () => (name ? { release: [this.catalog.nameKey(name)] } : {}) },
    );
    await this.catalog.caughtUp(position);
    if (events.length > 0) await this.catalog.discard(objectKeys);
  }
}
