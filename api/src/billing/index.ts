// The billing context's public face: what other contexts may use. Anything else in
// billing/ is its own business (ESLint refuses deep imports from outside).
export { ArchivePlan } from './application/archive-plan.handler';
export { BillingConsoleQueries } from './application/billing-console-queries';
export { BillingQueries } from './application/billing-queries';
export { CreatePlan } from './application/create-plan.handler';
export { type PlanFields, planIdOf } from './application/plan-fields';
export { plansOfUsers, type UserPlan } from './application/plans-of-users';
export { RefundPayment } from './application/refund-payment.handler';
export { RestorePlan } from './application/restore-plan.handler';
export { UpdatePlan } from './application/update-plan.handler';
export { BillingModule } from './billing.module';
export type { FREE_PLAN_ID } from './domain/plan';
export type { PlanEvent } from './domain/plan.decider';
export type { SubscriptionEvent } from './domain/subscription.events';
export { BILLING_ENTITIES, BILLING_PROJECTION, PaymentRecord, PlanRecord } from './projections/billing.entities';
export { BillingContext } from './application/billing-context';
