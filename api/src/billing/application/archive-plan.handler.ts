import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingContext } from './billing-context';

export class ArchivePlan {
  constructor(
    readonly planId: string,
    readonly at: Date,
  ) {}
}

/**
 * Deleting a plan archives it: no longer sold; its subscribers keep it until their period
 * ends. Returns once the read model shows it.
 */
@CommandHandler(ArchivePlan)
export class ArchivePlanHandler implements ICommandHandler<ArchivePlan, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ planId, at }: ArchivePlan): Promise<void> {
    const { position } = await this.billing.plans.execute(planId, { type: 'ArchivePlan', at });
    await this.billing.caughtUp(position);
  }
}
