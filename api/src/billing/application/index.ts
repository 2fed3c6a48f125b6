import { ActivateFromCheckoutHandler } from './activate-from-checkout.handler';
import { ArchivePlanHandler } from './archive-plan.handler';
import { CancelSubscriptionHandler } from './cancel-subscription.handler';
import { CreatePlanHandler } from './create-plan.handler';
import { EndBillingForDeletedAccountHandler } from './end-billing-for-deleted-account.handler';
import { RefundPaymentHandler } from './refund-payment.handler';
import { RestorePlanHandler } from './restore-plan.handler';
import { SettleSimulatedCheckoutHandler } from './settle-simulated-checkout.handler';
import { SubscribeHandler } from './subscribe.handler';
import { UpdatePlanHandler } from './update-plan.handler';
import { VerifyCheckoutHandler } from './verify-checkout.handler';

/** Every billing append goes through one of these (see platform/domain/one-write-path.unit.spec.ts). */
export const billingCommandHandlers = [
  CreatePlanHandler,
  UpdatePlanHandler,
  ArchivePlanHandler,
  RestorePlanHandler,
  SubscribeHandler,
  CancelSubscriptionHandler,
  ActivateFromCheckoutHandler,
  SettleSimulatedCheckoutHandler,
  VerifyCheckoutHandler,
  RefundPaymentHandler,
  EndBillingForDeletedAccountHandler,
];
