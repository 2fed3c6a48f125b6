import type { BillingCycle, Plan, SubscribeResponse } from '@meshwork/contracts';

export type ChangeDirection = 'upgrade' | 'downgrade';

/** Spec section 4: a higher tier is an upgrade, anything else a downgrade. */
export function changeDirection(currentTier: number, targetTier: number): ChangeDirection {
  return targetTier > currentTier ? 'upgrade' : 'downgrade';
}

/** The dialog's states (spec section 4): confirmation, processing, then success or error. */
export type PlanChangeState =
  { step: 'confirmation' } | { step: 'processing' } | { step: 'success'; message: string } | { step: 'error'; message: string };

export type PlanChangeEvent =
  { type: 'confirm' } | { type: 'succeeded'; message: string } | { type: 'failed'; message: string } | { type: 'retry' };

export const initialPlanChangeState: PlanChangeState = { step: 'confirmation' };

/** After this long the success state closes the dialog. */
export const SUCCESS_CLOSE_DELAY_MS = 3000;

/** Events that do not fit the current state are ignored, so a double click cannot send two changes. */
export function planChangeReducer(state: PlanChangeState, event: PlanChangeEvent): PlanChangeState {
  switch (event.type) {
    case 'confirm':
      return state.step === 'confirmation' ? { step: 'processing' } : state;
    case 'succeeded':
      return state.step === 'processing' ? { step: 'success', message: event.message } : state;
    case 'failed':
      return state.step === 'processing' ? { step: 'error', message: event.message } : state;
    case 'retry':
      return state.step === 'error' ? { step: 'confirmation' } : state;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

/** Cancel and close are blocked while the change is being made. */
export function canDismiss(state: PlanChangeState): boolean {
  return state.step !== 'processing';
}

/** What the success state says happened, by the server's outcome. */
export function successMessage(outcome: SubscribeResponse['outcome'], planName: string): string {
  switch (outcome) {
    case 'downgrade_scheduled':
      return `You will move to the ${planName} plan at the end of your current billing cycle.`;
    case 'unchanged':
      return `You are already on the ${planName} plan.`;
    default:
      return `You are now on the ${planName} plan.`;
  }
}

/** The price a plan costs per chosen cycle: the server's yearly price when paying yearly. */
export function cyclePrice(plan: Pick<Plan, 'price' | 'yearly_price'>, cycle: BillingCycle): string {
  return cycle === 'yearly' ? plan.yearly_price : plan.price;
}
