import { Inject, Injectable } from '@nestjs/common';
import type { PlanModelNames } from '../billing';
import { modelsOfPlans } from '../catalog';
import { DATABASE, type Database } from '../platform/database/database';

/**
 * A plan's `allowed_models` in billing's plan answers (billing's PlanModelNames): the names
 * of the published models the catalog opens to it, deactivated ones included (staff see
 * what the plan is set to open; the user object lists only what may be downloaded now).
 */
@Injectable()
export class PlanModelNamesReader implements PlanModelNames {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async of(planIds: readonly string[]): Promise<Map<string, string[]>> {
    const models = await modelsOfPlans(this.database, planIds);
    return new Map([...models].map(([planId, open]) => [planId, open.map((m) => m.name)]));
  }
}
