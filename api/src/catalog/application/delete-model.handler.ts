import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound, ruleBroken } from '../../platform/domain/errors';
import { CatalogContext } from './catalog-context';

export class DeleteModel {
  constructor(
    readonly modelId: string,
    readonly at: Date,
  ) {}
}

/**
 * Deletes a published model, frees its name and removes its files from storage (now, or
 * by the sweeper if storage is down). Returns once the read model no longer shows it.
 */
@CommandHandler(DeleteModel)
export class DeleteModelHandler implements ICommandHandler<DeleteModel, void> {
  constructor(private readonly catalog: CatalogContext) {}

  async execute({ modelId, at }: DeleteModel): Promise<void> {
    const { state } = await this.catalog.models.load(modelId);
    if (state.status === 'none' || state.status === 'failed' || state.status === 'deleted') throw notFound();
    if (state.status === 'processing') throw ruleBroken('The model is still being uploaded.');
    const keys = state.files.map((f) => f.objectKey);
    const { position } = await this.catalog.models.execute(
      modelId,
      { type: 'Delete', at },
      { unique: () => ({ release: [this.catalog.nameKey(state.model.name)] }) },
    );
    await this.catalog.writing(modelId, keys);
    await this.catalog.discard(keys);
    await this.catalog.caughtUp(position);
  }
}
