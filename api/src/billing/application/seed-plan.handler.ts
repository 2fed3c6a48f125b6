import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../platform/domain/errors';
import type { PlanTerms } from '../domain/plan';
import { BillingContext } from './billing-context';

export class SeedPlan {
  constructor(
    readonly planId: string,
    readonly terms: PlanTerms,
    readonly at: Date,
  ) {}
}

/**
 * Creates a plan of the starting catalogue unless it exists (on sale, held back or
 * archived: staff's choices stand). Answers whether it was created. Does not wait for the
 * read model: it runs at start, before the projections follow.
 */
@CommandHandler(SeedPlan)
export class SeedPlanHandler implements ICommandHandler<SeedPlan, boolean> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ planId, terms, at }: SeedPlan): Promise<boolean> {
    try {
      const { position } = await this.billing.plans.execute(planId, { type: 'CreatePlan', at, planId, terms, isActive: true });
      return position > 0;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error; // already there: created by an earlier start, or another instance
      return false;
    }
  }
}
