import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ModelPlan } from '@meshwork/contracts';
import { CatalogContext } from './catalog-context';
import { CatalogQueries } from './catalog.query';
import { ModelPlans } from './model-plans';

export class SetAccessMatrix {
  constructor(
    /** Keys "<model id>:<plan slug>", true where the model is open to the plan. */
    readonly matrix: Record<string, boolean>,
    readonly at: Date,
  ) {}
}

/**
 * The matrix dialog's save: each model named is open to the plans checked for it and
 * closed to those unchecked; plans its keys leave out (an archived plan, no longer a
 * column) stay as they were. Every plan named must be a live one. Each change is a bulk
 * access change (BULK_UPDATE_ACCESS in the audit log).
 */
@CommandHandler(SetAccessMatrix)
export class SetAccessMatrixHandler implements ICommandHandler<SetAccessMatrix, void> {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly queries: CatalogQueries,
    private readonly plans: ModelPlans,
  ) {}

  async execute({ matrix, at }: SetAccessMatrix): Promise<void> {
    const byModel = new Map<string, Map<ModelPlan, boolean>>();
    for (const [key, allowed] of Object.entries(matrix)) {
      const [modelId, plan] = key.split(':') as [string, ModelPlan];
      byModel.set(modelId, (byModel.get(modelId) ?? new Map<ModelPlan, boolean>()).set(plan, allowed));
    }
    await this.plans.check([...new Set([...byModel.values()].flatMap((plans) => [...plans.keys()]))], 'matrix');
    const current = new Map((await this.queries.adminModels()).map((m) => [m.id, m.allowedPlans]));
    let position = 0;
    for (const [modelId, named] of byModel) {
      const kept = (current.get(modelId) ?? []).filter((plan) => !named.has(plan));
      const allowedPlans = [...kept, ...[...named].filter(([, allowed]) => allowed).map(([plan]) => plan)];
      const changed = await this.catalog.models.execute(modelId, { type: 'ChangeAccess', at, allowedPlans, bulk: true });
      position = Math.max(position, changed.position);
    }
    await this.catalog.caughtUp(position);
  }
}
