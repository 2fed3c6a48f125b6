import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { z } from 'zod';
import type { PlanInput } from '@meshwork/contracts';
import { CreatePlan, planIdOf } from '../../billing';
import { CatalogAdmin } from '../../catalog';

export class CreatePlanWithModels {
  constructor(
    readonly input: z.output<typeof PlanInput>,
    readonly at: Date,
  ) {}
}

/**
 * The console's plan form: a billing plan, and the catalog models it may download (each
 * model's plan list is the catalog's). The model names are checked before the plan is
 * created, and the models changed after it; both read models show the result on return.
 * Answers the plan's id.
 */
@CommandHandler(CreatePlanWithModels)
export class CreatePlanWithModelsHandler implements ICommandHandler<CreatePlanWithModels, string> {
  constructor(
    private readonly commands: CommandBus,
    private readonly catalog: CatalogAdmin,
  ) {}

  async execute({ input, at }: CreatePlanWithModels): Promise<string> {
    const models = await this.catalog.planModelsChange(planIdOf(input), input.allowed_models);
    const planId = await this.commands.execute<CreatePlan, string>(new CreatePlan(input, at));
    await models.apply(at);
    return planId;
  }
}
