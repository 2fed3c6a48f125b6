import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { readSide } from '../../platform/database/read-side';
import { type PlanTerms, yearlyPriceOf } from '../domain/plan';
import type { PlanEvent, PlanState } from '../domain/plan.decider';
import { BILLING_ENTITIES, EntitlementRecord } from '../projections/billing.entities';
import { BillingContext } from './billing-context';
import { type PlanFields, termsChanges } from './plan-fields';

export class UpdatePlan {
  constructor(
    readonly planId: string,
    readonly fields: PlanFields,
    readonly at: Date,
  ) {}
}

/** The terms whose change reaches the plan's subscribers at once (desktop hosts follow them). */
const ENTITLEMENT_TERMS: (keyof PlanTerms)[] = ['maxNetworks', 'maxClientsPerNetwork', 'downloadAccess'];

/** Staff edit a plan; only the fields sent change. Returns once the read model shows it. */
@CommandHandler(UpdatePlan)
export class UpdatePlanHandler implements ICommandHandler<UpdatePlan, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ planId, fields, at }: UpdatePlan): Promise<void> {
    const changes = termsChanges(fields);
    const { state } = await this.billing.plans.load(planId);
    // A new monthly price moves the yearly one with it, unless staff also set a new yearly
    // price (the console sends the whole record, so an unchanged yearly price is no choice).
    if (state.status !== 'none' && changes.priceCents !== undefined && changes.priceCents !== state.terms.priceCents) {
      if (changes.yearlyPriceCents === undefined || changes.yearlyPriceCents === state.terms.yearlyPriceCents)
        changes.yearlyPriceCents = yearlyPriceOf(changes.priceCents);
    }
    const update = await this.billing.plans.execute(planId, { type: 'UpdatePlan', at, changes });
    let position = Math.max(update.position, await this.refreshSubscribers(planId, update.state, update.events, at));
    if (fields.is_active !== undefined) {
      const activation = await this.billing.plans.execute(planId, { type: 'SetPlanActive', at, active: fields.is_active });
      position = Math.max(position, activation.position);
    }
    await this.billing.caughtUp(position);
  }

  /**
   * New limits apply to the plan's subscribers at once: each gets an EntitlementsChanged
   * event (desktop hosts follow those). Returns the last position written.
   */
  private async refreshSubscribers(planId: string, plan: PlanState, events: PlanEvent[], at: Date): Promise<number> {
    const changed = events.some((e) => e.type === 'PlanUpdated' && ENTITLEMENT_TERMS.some((key) => key in e.data.changes));
    if (!changed || plan.status === 'none') return 0;
    const subscribers = await (
      await readSide(this.billing.database.pool, BILLING_ENTITIES)
    )
      .getRepository(EntitlementRecord)
      .find({ select: { user_id: true }, where: { plan_id: planId } });
    let position = 0;
    for (const { user_id: userId } of subscribers) {
      const result = await this.billing.subscriptions.execute(userId, {
        type: 'RefreshEntitlements',
        at,
        plan: { planId, terms: plan.terms },
      });
      position = Math.max(position, result.position);
      this.billing.signedIn.forget(userId);
    }
    return position;
  }
}
