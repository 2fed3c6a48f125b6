import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ruleBroken } from '../../platform/domain/errors';
import { ChangePlanModels } from './change-plan-models.handler';
import { CatalogQueries } from './catalog.query';

/** What billing's plan form needs of the catalog: the plan's allowed models are the models' own plans. */
@Injectable()
export class CatalogAdmin {
  constructor(
    private readonly queries: CatalogQueries,
    private readonly commands: CommandBus,
  ) {}

  /**
   * The plan form's allowed models: checks the names and works out which models change, so
   * the caller can check before it changes the plan itself; `apply` then sends the catalog's
   * command that opens exactly the named models to the plan (and closes the others), and
   * resolves once the catalog read model shows it. Any plan may be given models: the plan
   * itself is checked by billing's command (it must exist, or be the one created).
   */
  async planModelsChange(planId: string, names: string[]): Promise<{ apply(at: Date): Promise<void> }> {
    const wanted = new Set(names);
    const models = (await this.queries.adminModels()).filter((m) => m.status !== 'processing');
    const unknown = [...wanted].filter((name) => !models.some((m) => m.name === name));
    if (unknown.length) throw ruleBroken(`There is no model named ${unknown.join(', ')}.`, 'allowed_models');
    const changes = models
      .filter((m) => wanted.has(m.name) !== m.allowedPlans.includes(planId))
      .map((m) => ({
        modelId: m.id,
        allowedPlans: wanted.has(m.name) ? [...m.allowedPlans, planId] : m.allowedPlans.filter((p) => p !== planId),
      }));
    return { apply: (at) => this.commands.execute(new ChangePlanModels(planId, changes, at)) };
  }
}
