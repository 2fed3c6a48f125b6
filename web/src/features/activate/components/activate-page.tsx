import { formatUserCode, normalizeUserCode } from '@meshwork/contracts';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../shared/ui/button';
import { Card } from '../../../shared/ui/card';
import { PageSpinner } from '../../../shared/ui/spinner';
import { useDecideActivation } from '../api/decide-activation';
import { usePendingActivation } from '../api/get-pending-activation';
import { CodeEntryForm } from './code-entry-form';
import { ConfirmActivation, type Decision } from './confirm-activation';

/**
 * /activate: the desktop app's sign-in (RFC 8628). The person enters the code the app shows
 * (or arrives with ?user_code= from the app's link), checks the device, names it and approves
 * or denies. Signed-out visitors go through /login and come back with the code kept.
 */
export function ActivatePage() {
  const [params] = useSearchParams();
  const linked = params.get('user_code') ?? '';
  // A well-formed code from the app's link is looked up at once; anything else waits for the form.
  const [code, setCode] = useState<string | null>(() => normalizeUserCode(linked));
  const [outcome, setOutcome] = useState<{ approved: boolean; message: string } | null>(null);
  const pending = usePendingActivation(outcome ? null : code);
  const decide = useDecideActivation();

  const onDecide = (decision: Decision) =>
    decide.mutate(
      { user_code: code!, approve: decision.approve, ...(decision.approve ? { name: decision.name } : {}) },
      { onSuccess: ({ message }) => setOutcome({ approved: decision.approve, message }) },
    );

  // The same code again (after a refusal) asks again rather than reading the cached refusal.
  const lookUp = (typed: string) => (typed === code ? void pending.refetch() : setCode(typed));

  const startOver = () => {
    setCode(null);
    decide.reset();
  };

  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <Card className="p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">Sign in a device</h1>
        <div className="mt-6">
          {outcome ? (
            <div role="status">
              <p className="font-medium text-slate-900 dark:text-white">
                {outcome.approved ? 'Device approved.' : 'Sign-in request denied.'}
              </p>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                {outcome.approved ? 'You can return to your device: it finishes signing in by itself.' : 'You can return to your device.'}
              </p>
            </div>
          ) : code === null || pending.isError ? (
            <CodeEntryForm
              initialCode={code ? formatUserCode(code) : linked}
              checking={pending.isFetching}
              serverError={pending.error?.message ?? null}
              onSubmit={lookUp}
            />
          ) : pending.data ? (
            <>
              <ConfirmActivation
                pending={pending.data}
                deciding={decide.isPending}
                serverError={decide.error?.message ?? null}
                onDecide={onDecide}
              />
              <Button variant="ghost" size="sm" className="mt-4" onClick={startOver} disabled={decide.isPending}>
                Enter another code
              </Button>
            </>
          ) : (
            <PageSpinner label="Looking up the code…" />
          )}
        </div>
      </Card>
    </div>
  );
}
