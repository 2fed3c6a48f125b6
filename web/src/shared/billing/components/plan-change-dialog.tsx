import type { BillingCycle, Plan } from '@meshwork/contracts';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useEffect, useReducer, useRef } from 'react';
import { errorMessage } from '../../api/api-error';
import { formatMoney } from '../../format/billing-format';
import { notifyFailure, notifySuccess } from '../../toast/notify';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Spinner } from '../../ui/spinner';
import { useSubscribe } from '../api/subscribe';
import {
  canDismiss,
  changeDirection,
  cyclePrice,
  initialPlanChangeState,
  planChangeReducer,
  SUCCESS_CLOSE_DELAY_MS,
  successMessage,
} from '../plan-change';

export interface PlanChangeDialogProps {
  target: Plan;
  /** The user's plan now; undefined when it is not known. */
  current: Plan | undefined;
  billingCycle: BillingCycle;
  /** Mount the dialog to open it and unmount it here: every opening starts at confirmation. */
  onClose: () => void;
}

/** The plan-change dialog of spec section 4, making the real subscribe call. */
export function PlanChangeDialog({ target, current, billingCycle, onClose }: PlanChangeDialogProps) {
  const [state, dispatch] = useReducer(planChangeReducer, initialPlanChangeState);
  const subscribe = useSubscribe();
  const direction = changeDirection(current?.tier ?? 0, target.tier);
  const isUpgrade = direction === 'upgrade';
  const price = `${formatMoney(cyclePrice(target, billingCycle))}/${billingCycle === 'yearly' ? 'year' : 'month'}`;

  // The owner re-renders (refetches) during the 3 s; the timer must not restart each time.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);
  useEffect(() => {
    if (state.step !== 'success') return;
    const timer = setTimeout(() => onCloseRef.current(), SUCCESS_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.step]);

  function confirm() {
    dispatch({ type: 'confirm' });
    subscribe.mutate(
      { plan_id: target.slug, payment_method: 'stripe', billing_cycle: billingCycle },
      {
        onSuccess: (response) => {
          // Paying happens on the checkout page; the dialog stays busy until the browser leaves.
          if (response.payment_url) {
            window.location.assign(response.payment_url);
            return;
          }
          notifySuccess('Subscription updated successfully!');
          dispatch({ type: 'succeeded', message: successMessage(response.outcome, target.name) });
        },
        onError: (error) => {
          notifyFailure('Failed to change plan. Please try again.', error);
          dispatch({ type: 'failed', message: errorMessage(error, 'Failed to change plan') });
        },
      },
    );
  }

  const dismissible = canDismiss(state);
  const titles = {
    confirmation: `${isUpgrade ? 'Upgrade' : 'Downgrade'} to ${target.name}`,
    processing: 'Changing Your Plan',
    success: 'Plan Changed',
    error: 'Plan Change Failed',
  };

  return (
    <Dialog title={titles[state.step]} onClose={onClose} dismissible={dismissible}>
      {state.step === 'confirmation' && (
        <div className="space-y-4 text-sm text-slate-600 dark:text-slate-300">
          <p>
            From <strong className="text-slate-900 dark:text-white">{current?.name ?? 'your current plan'}</strong> to{' '}
            <strong className="text-slate-900 dark:text-white">{target.name}</strong> at {price}.
          </p>
          <p className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
            {isUpgrade
              ? 'Your upgrade takes effect immediately. You will be charged a prorated amount for the rest of the current billing cycle.'
              : 'Your downgrade takes effect at the end of the current billing cycle. You keep your current features until then.'}
          </p>
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={confirm}>{isUpgrade ? 'Confirm Upgrade' : 'Confirm Downgrade'}</Button>
          </div>
        </div>
      )}
      {state.step === 'processing' && (
        <div className="space-y-5">
          <p role="status" className="flex items-center gap-3 text-sm text-slate-600 dark:text-slate-300">
            <Spinner className="size-5" /> Processing your plan change…
          </p>
          <div className="flex justify-end">
            <Button variant="secondary" disabled>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {state.step === 'success' && (
        <p role="status" className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-200">
          <CircleCheck className="size-5 shrink-0 text-green-600 dark:text-green-400" aria-hidden />
          {state.message}
        </p>
      )}
      {state.step === 'error' && (
        <div role="alert" className="space-y-4 text-sm">
          <div className="flex items-start gap-3 text-slate-700 dark:text-slate-200">
            <CircleAlert className="size-5 shrink-0 text-red-600 dark:text-red-400" aria-hidden />
            <p>We encountered an error while processing your plan change. Please try again or contact support if the problem persists.</p>
          </div>
          <p className="rounded-lg bg-red-50 p-3 text-red-800 dark:bg-red-950/40 dark:text-red-200">{state.message}</p>
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Button onClick={() => dispatch({ type: 'retry' })}>Try Again</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
