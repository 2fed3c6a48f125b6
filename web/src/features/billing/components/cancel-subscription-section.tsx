import type { Subscription } from '@meshwork/contracts';
import { useState } from 'react';
import { formatDay } from '../../../shared/format/account-format';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { Dialog } from '../../../shared/ui/dialog';
import { Spinner } from '../../../shared/ui/spinner';
import { useCancelSubscription } from '../api/cancel-subscription';

/** Cancel Subscription, asked first; the plan runs to the end of the paid period. */
export function CancelSubscriptionSection({ subscription }: { subscription: Subscription }) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useCancelSubscription();

  function confirmCancel() {
    cancel.mutate(undefined, {
      onSuccess: () => notifySuccess('Subscription cancelled successfully'),
      onError: (error) => notifyFailure('Failed to cancel subscription', error),
      onSettled: () => setConfirming(false),
    });
  }

  return (
    <>
      <Button variant="secondary" fullWidth onClick={() => setConfirming(true)} className="text-red-700! dark:text-red-300!">
        Cancel Subscription
      </Button>
      {confirming && (
        <Dialog title="Cancel Subscription" onClose={() => setConfirming(false)} dismissible={!cancel.isPending}>
          <p className="text-sm text-slate-700 dark:text-slate-200">Are you sure you want to cancel your subscription?</p>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            You keep the {subscription.plan_name} plan until {formatDay(subscription.expires_at)}, then move to the Free plan.
          </p>
          <div className="mt-6 flex justify-end gap-3">
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={cancel.isPending}>
              Keep Subscription
            </Button>
            <Button onClick={confirmCancel} disabled={cancel.isPending} className="bg-red-600! text-white! hover:bg-red-700!">
              {cancel.isPending && <Spinner />}
              Yes, Cancel Subscription
            </Button>
          </div>
        </Dialog>
      )}
    </>
  );
}
