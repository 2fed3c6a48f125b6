import { Injectable } from '@nestjs/common';
import { BillingConsoleQueries } from '../../billing';
import { ruleBroken } from '../../platform/domain/errors';

/**
 * Which plans a model may be opened to: the billing plans that exist and are not archived,
 * staff-made ones included. Billing owns the plans, so the catalog asks billing's query
 * service for them when staff set access, rather than reading billing's tables itself.
 */
@Injectable()
export class ModelPlans {
  constructor(private readonly billing: BillingConsoleQueries) {}

  /**
   * Throws a 400 naming every slug in `plans` that is no live plan. `kept` are slugs the model
   * already allows: an archived plan's subscribers keep its models until their period ends,
   * so a change may keep such a slug, though it may not add one.
   */
  async check(plans: readonly string[], field: string, kept: readonly string[] = []): Promise<void> {
    const wanted = plans.filter((plan) => !kept.includes(plan));
    if (wanted.length === 0) return;
    const live = new Set((await this.billing.adminPlans(undefined, false)).map((plan) => plan.id));
    const unknown = [...new Set(wanted)].filter((plan) => !live.has(plan));
    if (unknown.length) throw ruleBroken(`There is no plan ${unknown.map((p) => `"${p}"`).join(', ')}.`, field);
  }
}
