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
 * slug. Restoring a plan that is not archived changes nothing. Returns once the read model
 * shows it.
 */
@CommandHandler(RestorePlan)
export class RestorePlanHandler implements ICommandHandler<RestorePlan, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ planId, at }: RestorePlan): Promise<void> {
    const { position } = await this.billing.plans.execute(planId, { type: 'RestorePlan', at });
    await this.billing.caughtUp(position);
  }
}
