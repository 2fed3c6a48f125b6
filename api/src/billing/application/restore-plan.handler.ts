import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingContext } from './billing-context';

export class RestorePlan {
  constructor(
    readonly planId: string,
    readonly at: Date,
  ) {}
}

/**
 * Staff bring an archived plan back: on sale again with the terms it had, under its own
 * slug. Restoring a plan that is not archived changes nothing.
 */
@CommandHandler(RestorePlan)
export class RestorePlanHandler implements ICommandHandler<RestorePlan, number> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ planId, at }: RestorePlan): Promise<number> {
    return (await this.billing.plans.execute(planId, { type: 'RestorePlan', at })).position;
  }
}
