import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type PlanFields, UpdatePlan } from '../../billing';
import { CatalogAdmin } from '../../catalog';

export class UpdatePlanWithModels {
  constructor(
    readonly planId: string,
    readonly fields: PlanFields,
    readonly at: Date,
  ) {}
}

/**
 * The console's plan form saved: the billing plan's fields, and (when the form sends them)
 * the catalog models it may download. The model names are checked before the plan changes
 * and the models changed after it; both read models show the result on return.
 */
@CommandHandler(UpdatePlanWithModels)
export class UpdatePlanWithModelsHandler implements ICommandHandler<UpdatePlanWithModels, void> {
  constructor(
    private readonly commands: CommandBus,
    private readonly catalog: CatalogAdmin,
  ) {}

  async execute({ planId, fields, at }: UpdatePlanWithModels): Promise<void> {
    const models = fields.allowed_models === undefined ? null : await this.catalog.planModelsChange(planId, fields.allowed_models);
    await this.commands.execute(new UpdatePlan(planId, fields, at));
    await models?.apply(at);
  }
}
