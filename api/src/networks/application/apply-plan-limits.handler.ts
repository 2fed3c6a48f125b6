import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { PlanChange } from '../domain/network.events';
import { NetworkContext } from './network-context';

export class ApplyPlanLimits {
  constructor(
    readonly userId: string,
    /** What changed: the kind of change and the billing or catalog event that made it. */
    readonly trigger: Pick<PlanChange, 'source' | 'eventId'>,
    readonly at: Date,
  ) {}
}

/**
 * Brings a customer's networks within their plan's limits as they stand now: suspends,
 * resumes and disconnects (never deletes). Idempotent: limits already applied change
 * nothing, so the plan-limits follower may send it again. Returns the last position written.
 */
@CommandHandler(ApplyPlanLimits)
export class ApplyPlanLimitsHandler implements ICommandHandler<ApplyPlanLimits, number> {
  constructor(private readonly context: NetworkContext) {}

  async execute({ userId, trigger, at }: ApplyPlanLimits): Promise<number> {
    // Most customers touched by a plan change have no network: no need to ask for limits.
    const { state } = await this.context.networks.load(userId);
    if (state.networks.length === 0) return 0;
    const limits = await this.context.limitsOf(userId);
    const change: PlanChange = { planId: limits.planId, planName: limits.planName, ...trigger };
    const { position } = await this.context.networks.execute(userId, { type: 'ApplyPlanLimits', at, limits, change });
    return position;
  }
}
