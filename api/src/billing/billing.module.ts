import { Module } from '@nestjs/common';
import { billingCommandHandlers } from './application';
import { IdentityModule } from '../identity';
import { BillingClock } from './application/billing-clock';
import { BillingConsoleQueries } from './application/billing-console.query';
import { BillingContext } from './application/billing-context';
import { BillingHistory } from './application/billing-history';
import { BillingQueries } from './application/billing.query';
import { InvoiceIssuerFollower } from './application/invoice-issuer.follower';
import { InvoiceReceipts } from './application/invoice-receipts';
import { InvoiceQueries } from './application/invoices.query';
import { InvoicingContext } from './application/invoicing-context';
import { SeedPlans } from './application/seed-plans';
import { InvoicesController } from './http/invoices.controller';
import { PreferencesController } from './http/preferences.controller';
import { StripeWebhookController } from './http/stripe-webhook.controller';
import { SubscriptionsController } from './http/subscriptions.controller';
import { StripeWebhooks } from './infrastructure/stripe-webhooks';

/** Plans, subscriptions, payments and refunds, with Stripe or the simulated checkout. */
@Module({
  imports: [IdentityModule],
  controllers: [SubscriptionsController, PreferencesController, StripeWebhookController, InvoicesController],
  providers: [
    BillingContext,
    BillingHistory,
    BillingQueries,
    BillingConsoleQueries,
    SeedPlans,
    BillingClock,
    StripeWebhooks,
    // invoices: numbered from the log, mailed, read by the site and the console
    InvoicingContext,
    InvoiceQueries,
    InvoiceReceipts,
    InvoiceIssuerFollower,
    ...billingCommandHandlers,
  ],
  exports: [BillingHistory, BillingQueries, BillingConsoleQueries, BillingClock, InvoiceQueries],
})
export class BillingModule {}
