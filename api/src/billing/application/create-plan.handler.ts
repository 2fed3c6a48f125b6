import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { z } from 'zod';
import type { PlanInput } from '@meshwork/contracts';
import { readSide } from '../../platform/database/read-side';
import { ruleBroken } from '../../platform/domain/errors';
import { type PlanTerms, yearlyPriceOf } from '../domain/plan';
import { BILLING_ENTITIES, PlanRecord } from '../projections/billing.entities';
import { BillingContext } from './billing-context';
import { planIdOf, termsChanges } from './plan-fields';

export class CreatePlan {
  constructor(
    readonly input: z.output<typeof PlanInput>,
    readonly at: Date,
  ) {}
}

/**
 * Staff add a plan; its slug (from the name unless given) is its id and cannot change.
 * Answers the plan's id once the read model shows it.
 */
@CommandHandler(CreatePlan)
export class CreatePlanHandler implements ICommandHandler<CreatePlan, string> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ input, at }: CreatePlan): Promise<string> {
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
      apiTokenScope: input.api_token_scope,
      apiRequestsPerMinute: input.api_requests_per_minute,
      webhooks: input.webhooks,
      usageHistoryDays: input.usage_history_days,
      tier: input.tier ?? (await this.nextTier()),
      popular: false,
    };
    const { position } = await this.billing.plans.execute(planId, { type: 'CreatePlan', at, planId, terms, isActive: input.is_active });
    await this.billing.caughtUp(position);
    return planId;
  }

  /** A new plan without a tier sorts after every existing one. */
  private async nextTier(): Promise<number> {
    const plans = (await readSide(this.billing.database.pool, BILLING_ENTITIES)).getRepository(PlanRecord);
    return ((await plans.maximum('tier')) ?? 0) + 1;
  }
}
