import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { z } from 'zod';
import { centsOf, type PlanInput, type PlanUpdate } from '../../../../contracts/src/billing/billing.contract';
import { ruleBroken } from '../../platform/domain/errors';
import { type PlanTerms, yearlyPriceOf } from '../domain/plan';
import type { PlanEvent, PlanState } from '../domain/plan.decider';
import { readModelSchema } from '../../platform/projections/projection';
import { BILLING_PROJECTION } from '../projections/billing.projection';
import { BillingContext } from './billing-context';

type PlanFields = z.output<typeof PlanUpdate>;

/** Staff's plan fields in the domain's terms; unset fields stay as they are. */
function termsChanges(fields: PlanFields): Partial<PlanTerms> {
  const changes: Partial<PlanTerms> = {};
  if (fields.name !== undefined) changes.name = fields.name;
  if (fields.description !== undefined) changes.description = fields.description;
  if (fields.price !== undefined) changes.priceCents = centsOf(fields.price);
  if (fields.yearly_price !== undefined) changes.yearlyPriceCents = centsOf(fields.yearly_price);
  if (fields.duration_days !== undefined) changes.durationDays = fields.duration_days;
  if (fields.max_networks !== undefined) changes.maxNetworks = fields.max_networks;
  if (fields.max_clients !== undefined) changes.maxClientsPerNetwork = fields.max_clients;
  if (fields.features !== undefined) changes.features = [...new Set(fields.features)];
  if (fields.model_access !== undefined) changes.modelAccess = fields.model_access;
  if (fields.api_access !== undefined) changes.apiAccess = fields.api_access;
  if (fields.download_access !== undefined) changes.downloadAccess = fields.download_access;
  if (fields.tier !== undefined) changes.tier = fields.tier;
  return changes;
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);

/** The id a new plan gets: its slug, from the name unless given. */
export const planIdOf = (input: { slug?: string; name: string }) => input.slug ?? slugOf(input.name);

export class CreatePlan {
  constructor(
    readonly input: z.output<typeof PlanInput>,
    readonly at: Date,
  ) {}
}

/** Staff add a plan; its slug (from the name unless given) is its id and cannot change. */
@CommandHandler(CreatePlan)
export class CreatePlanHandler implements ICommandHandler<CreatePlan, { planId: string; position: number }> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ input, at }: CreatePlan) {
    const planId = planIdOf(input);
    if (!planId) throw ruleBroken('Slug may contain only lowercase letters, digits and dashes', 'slug');
    const changes = termsChanges(input);
    const priceCents = changes.priceCents ?? 0;
    const terms: PlanTerms = {
      name: input.name,
      description: input.description,
      priceCents,
      yearlyPriceCents: changes.yearlyPriceCents ?? yearlyPriceOf(priceCents),
      durationDays: input.duration_days,
      maxNetworks: input.max_networks,
      maxClientsPerNetwork: input.max_clients,
      features: changes.features ?? [],
      modelAccess: input.model_access ?? 'Basic',
      apiAccess: input.api_access ?? 'Limited',
      downloadAccess: input.download_access,
      tier: input.tier ?? (await this.nextTier()),
      popular: false,
    };
    const { position } = await this.billing.plans.execute(planId, { type: 'CreatePlan', at, planId, terms, isActive: input.is_active });
    return { planId, position };
  }

  /** A new plan without a tier sorts after every existing one. */
  private async nextTier(): Promise<number> {
    const { rows } = await this.billing.database.pool.query<{ tier: number | null }>(
      `SELECT max(tier) AS tier FROM ${readModelSchema(BILLING_PROJECTION)}.plans`,
    );
    return (rows[0]?.tier ?? 0) + 1;
  }
}

export class UpdatePlan {
  constructor(
    readonly planId: string,
    readonly fields: PlanFields,
    readonly at: Date,
  ) {}
}

/** Staff edit a plan; only the fields sent change. */
@CommandHandler(UpdatePlan)
export class UpdatePlanHandler implements ICommandHandler<UpdatePlan, number> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ planId, fields, at }: UpdatePlan): Promise<number> {
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
      position = Math.max(
        position,
        (await this.billing.plans.execute(planId, { type: 'SetPlanActive', at, active: fields.is_active })).position,
      );
    }
    return position;
  }

  /**
   * New limits apply to the plan's subscribers at once: each gets an EntitlementsChanged
   * event (desktop hosts follow those). Returns the last position written.
   */
  private async refreshSubscribers(planId: string, plan: PlanState, events: PlanEvent[], at: Date): Promise<number> {
    const changed = events.some((e) => e.type === 'PlanUpdated' && ENTITLEMENT_TERMS.some((key) => key in e.data.changes));
    if (!changed || plan.status === 'none') return 0;
    const { rows } = await this.billing.database.pool.query<{ user_id: string }>(
      `SELECT user_id FROM ${readModelSchema(BILLING_PROJECTION)}.entitlements WHERE plan_id = $1`,
      [planId],
    );
    let position = 0;
    for (const { user_id: userId } of rows) {
      const result = await this.billing.subscriptions.execute(userId, {
        type: 'RefreshEntitlements',
        at,
        plan: { planId, terms: plan.terms },
      });
      position = Math.max(position, result.position);
      this.billing.identity.signedIn.forget(userId);
    }
    return position;
  }
}

const ENTITLEMENT_TERMS: (keyof PlanTerms)[] = ['maxNetworks', 'maxClientsPerNetwork', 'downloadAccess'];

export class ArchivePlan {
  constructor(
    readonly planId: string,
    readonly at: Date,
  ) {}
}

/** Deleting a plan archives it: no longer sold; its subscribers keep it until their period ends. */
@CommandHandler(ArchivePlan)
export class ArchivePlanHandler implements ICommandHandler<ArchivePlan, number> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ planId, at }: ArchivePlan): Promise<number> {
    return (await this.billing.plans.execute(planId, { type: 'ArchivePlan', at })).position;
  }
}
