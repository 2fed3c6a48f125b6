import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { useVerifyCheckout } from '../api/verify-checkout';

/**
 * Back from checkout (`?checkout=success&session_id=…`): verify the session once, say how it
 * went, and drop the parameters so a reload does not verify again. Returns whether it is verifying.
 */
export function useCheckoutReturn(): boolean {
  const [params, setParams] = useSearchParams();
  const verify = useVerifyCheckout();
  const { mutate } = verify;
  const sessionId = params.get('checkout') === 'success' ? params.get('session_id') : null;
  // Effects can run twice (React's strict mode); a session is verified once per page.
  const verified = useRef<string | null>(null);

  useEffect(() => {
    if (!sessionId || verified.current === sessionId) return;
    verified.current = sessionId;
    setParams(
      (current) => {
        current.delete('checkout');
        current.delete('session_id');
        return current;
      },
      { replace: true },
    );
    mutate(sessionId, {
      onSuccess: () => notifySuccess('Subscription updated successfully!'),
      onError: (error) => notifyFailure('Failed to subscribe to plan', error),
    });
  }, [sessionId, setParams, mutate]);

  return verify.isPending;
}
