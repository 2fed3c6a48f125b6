import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ModelPlan } from '@meshwork/contracts';
import { CatalogContext } from './catalog-context';
import { CatalogQueries } from './catalog.query';
import { ModelPlans } from './model-plans';

export class ChangeModelAccess {
  constructor(
    readonly modelId: string,
    readonly allowedPlans: ModelPlan[],
    readonly at: Date,
  ) {}
}

/**
 * A model's card: the model is open to exactly these plans, each a live plan or one the
 * model already allows. Returns once the catalog read model shows the change.
 */
@CommandHandler(ChangeModelAccess)
export class ChangeModelAccessHandler implements ICommandHandler<ChangeModelAccess, void> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly queries: CatalogQueries,
    private readonly plans: ModelPlans,
  ) {}

  async execute({ modelId, allowedPlans, at }: ChangeModelAccess): Promise<void> {
    const model = await this.queries.adminModel(modelId);
    await this.plans.check(allowedPlans, 'allowed_plans', model?.allowedPlans);
    const { position } = await this.catalog.models.execute(modelId, { type: 'ChangeAccess', at, allowedPlans, bulk: false });
    await this.catalog.caughtUp(position);
  }
}
