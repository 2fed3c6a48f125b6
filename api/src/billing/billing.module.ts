import { Module } from '@nestjs/common';
import { billingCommandHandlers } from './application';
import { IdentityModule } from '../identity';
import { BillingClock } from './application/billing-clock';
import { BillingConsoleQueries } from './application/billing-console.query';
import { BillingContext } from './application/billing-context';
import { BillingHistory } from './application/billing-history';
import { BillingQueries } from './application/billing.query';
import { SeedPlans } from './application/seed-plans';
import { PreferencesController } from './http/preferences.controller';
import { StripeWebhookController } from './http/stripe-webhook.controller';
import { SubscriptionsController } from './http/subscriptions.controller';
import { StripeWebhooks } from './infrastructure/stripe-webhooks';

/** Plans, subscriptions, payments and refunds, with Stripe or the simulated checkout. */
@Module({
  imports: [IdentityModule],
  controllers: [SubscriptionsController, PreferencesController, StripeWebhookController],
  providers: [
    BillingContext,
    BillingHistory,
    BillingQueries,
    BillingConsoleQueries,
    SeedPlans,
    BillingClock,
    StripeWebhooks,
    ...billingCommandHandlers,
  ],
  exports: [BillingHistory, BillingQueries, BillingConsoleQueries, BillingClock],
})
export class BillingModule {}
