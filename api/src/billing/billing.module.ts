import { Module } from '@nestjs/common';
import { billingCommandHandlers } from './application';
import { IdentityModule } from '../identity/identity.module';
import { BillingClock } from './application/billing-clock';
import { BillingConsoleQueries } from './application/billing-console-queries';
import { BillingContext } from './application/billing-context';
import { BillingQueries } from './application/billing-queries';
import { CatalogQueries } from '../catalog/application/catalog-queries';
import { SeedPlans } from './application/seed-plans';
import { AccountPlanController } from './http/account-plan.controller';
import { StripeWebhookController } from './http/stripe-webhook.controller';
import { SubscriptionsController } from './http/subscriptions.controller';
import { StripeWebhooks } from './infrastructure/stripe-webhooks';

/** Plans, subscriptions, payments and refunds, with Stripe or the simulated checkout. */
@Module({
  imports: [IdentityModule],
  controllers: [SubscriptionsController, AccountPlanController, StripeWebhookController],
  providers: [
    BillingContext,
    BillingQueries,
    BillingConsoleQueries,
    // Stateless reads of the catalog's read model, for the plan info's models.
    CatalogQueries,
    SeedPlans,
    BillingClock,
    StripeWebhooks,
    ...billingCommandHandlers,
  ],
  exports: [BillingContext, BillingQueries, BillingConsoleQueries, BillingClock],
})
export class BillingModule {}
