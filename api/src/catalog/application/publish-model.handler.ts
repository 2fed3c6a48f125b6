import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { UploadResponse } from '@meshwork/contracts';
import { conflict } from '../../platform/domain/errors';
import type { StoredFile } from '../domain/model.decider';
import { CatalogContext } from './catalog-context';

export class PublishModel {
  constructor(
    readonly modelId: string,
    /** Every file, stored and checked against its SHA-256. */
    readonly files: StoredFile[],
    readonly at: Date,
  ) {}
}

/**
 * The last step of either upload: the model becomes visible with its files, and they are
 * no longer the sweeper's. Answers the spec's upload response once the read model shows it.
 */
@CommandHandler(PublishModel)
export class PublishModelHandler implements ICommandHandler<PublishModel, UploadResponse> {
  constructor(private readonly catalog: CatalogContext) {}

  async execute({ modelId, files, at }: PublishModel): Promise<UploadResponse> {
    const { position, state } = await this.catalog.models.execute(modelId, { type: 'Publish', at, files });
    await this.catalog.kept(files.map((f) => f.objectKey));
    await this.catalog.caughtUp(position);
    if (state.status === 'none' || state.status === 'failed' || state.status === 'deleted')
      throw conflict('The upload ended before it could be published.');
    return {
      model_id: modelId,
      model_name: state.model.name,
      display_name: state.model.displayName,
      status: 'active',
      total_size: files.reduce((sum, f) => sum + f.size, 0),
      parts_count: files.length,
      allowed_plans: state.allowedPlans,
    };
  }
}
