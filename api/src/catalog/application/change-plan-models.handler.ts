import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ModelPlan } from '@meshwork/contracts';
import { CatalogContext } from './catalog-context';

/** One model's plans after a plan form's save. */
export interface ModelAccess {
  modelId: string;
  allowedPlans: ModelPlan[];
}

export class ChangePlanModels {
  constructor(
    readonly planId: string,
    readonly changes: ModelAccess[],
    readonly at: Date,
  ) {}
}

/**
 * The plan form's allowed models, applied to the models: each change is a change of that
 * model's plans (an ACCESS entry in the audit log). The changes were worked out and checked
 * by `CatalogAdmin.planModelsChange` before billing changed the plan; the plan itself is
 * billing's to check. Returns once the catalog read model shows every change.
 */
@CommandHandler(ChangePlanModels)
export class ChangePlanModelsHandler implements ICommandHandler<ChangePlanModels, void> {
  constructor(private readonly catalog: CatalogContext) {}

  async execute({ changes, at }: ChangePlanModels): Promise<void> {
    let position = 0;
    for (const { modelId, allowedPlans } of changes) {
      const changed = await this.catalog.models.execute(modelId, { type: 'ChangeAccess', at, allowedPlans, bulk: false });
      position = Math.max(position, changed.position);
    }
    await this.catalog.caughtUp(position);
  }
}
