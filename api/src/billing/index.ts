// The billing context's public face: only what other contexts call. Its events (types and
// stored names) are in events.ts. Anything else in billing/ is its own business (ESLint
// refuses deep imports from outside).
export { ArchivePlan } from './application/archive-plan.handler';
export { BillingConsoleQueries } from './application/billing-console.query';
export { BillingHistory } from './application/billing-history';
export { BillingQueries } from './application/billing.query';
export { INVOICES_FOLLOWER } from './application/invoice-issuer.follower';
export { InvoiceQueries } from './application/invoices.query';
export { CreatePlan } from './application/create-plan.handler';
export { type PlanFields, planIdOf } from './application/plan-fields';
export { PLAN_MODEL_NAMES, type PlanModelNames } from './application/plan-model-names.port';
export { plansOfUsers } from './application/plans-of-users';
export { RefundPayment } from './application/refund-payment.handler';
export { RestorePlan } from './application/restore-plan.handler';
export { UpdatePlan } from './application/update-plan.handler';
export { BillingModule } from './billing.module';
export type { FREE_PLAN_ID } from './domain/plan';
export { BILLING_PROJECTION } from './projections/billing.entities';
