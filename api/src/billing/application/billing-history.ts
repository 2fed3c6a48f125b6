import { Injectable } from '@nestjs/common';
import { type AggregateHistory, historyOf } from '../../platform/domain/aggregate-history';
import { BillingContext } from './billing-context';

/** Billing's aggregates as the audit context replays them, without the write side. */
@Injectable()
export class BillingHistory {
  readonly aggregates: readonly AggregateHistory[];

  constructor(billing: BillingContext) {
    this.aggregates = [billing.plans, billing.subscriptions, billing.payments, billing.preferences].map(historyOf);
  }
}
