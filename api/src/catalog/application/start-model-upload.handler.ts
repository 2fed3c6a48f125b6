import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { z } from 'zod';
import type { UploadFields } from '@meshwork/contracts';
import { UniqueValueTakenError } from '../../platform/event-store/event-store.errors';
import { ValidationFailed } from '../../platform/http/validation';
import { CatalogContext } from './catalog-context';
import { ModelPlans } from './model-plans';

/** A model's description and plans, as the upload form (or the resumable start) gives them. */
export type ModelFields = Omit<z.output<typeof UploadFields>, 'checksums'>;

export class StartModelUpload {
  constructor(
    readonly fields: ModelFields,
    readonly at: Date,
    /** The simple upload reserves the id first: its files are stored under it before the fields are read. */
    readonly modelId: string = randomUUID(),
  ) {}
}

/**
 * The first step of either upload: checks the plans, claims the model's name (unique among
 * live models, in the append's transaction) and records the upload as started (status
 * processing, shown in the console but to no customer). Answers the new model's id.
 */
@CommandHandler(StartModelUpload)
export class StartModelUploadHandler implements ICommandHandler<StartModelUpload, string> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly plans: ModelPlans,
  ) {}

  async execute({ fields, at, modelId }: StartModelUpload): Promise<string> {
    await this.plans.check(fields.allowed_plans, 'allowed_plans');
    const model = {
      name: fields.name,
      displayName: fields.display_name,
      description: fields.description,
      version: fields.version,
      parameters: fields.parameters,
      architecture: fields.architecture,
    };
    try {
      await this.catalog.models.execute(
        modelId,
        { type: 'StartUpload', at, modelId, model, allowedPlans: fields.allowed_plans },
        { unique: () => ({ claim: [this.catalog.nameKey(fields.name)] }) },
      );
    } catch (error) {
      if (error instanceof UniqueValueTakenError)
        throw new ValidationFailed({
          message: 'A model with this name already exists.',
          errors: { name: ['A model with this name already exists.'] },
        });
      throw error;
    }
    return modelId;
  }
}
