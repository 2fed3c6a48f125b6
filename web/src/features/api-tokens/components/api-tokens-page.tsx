import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ApiToken } from '@meshwork/contracts';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { formatDay } from '../../../shared/format/account-format';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { Card } from '../../../shared/ui/card';
import { Dialog } from '../../../shared/ui/dialog';
import { PageSpinner, Spinner } from '../../../shared/ui/spinner';
import { useApiTokens, useRevokeApiToken } from '../api/api-tokens-api';
import { CreateTokenDialog } from './create-token-dialog';

const SCOPES: Record<ApiToken['scope'], string> = { read: 'Read only', read_write: 'Read and write' };

/** /settings/api: the customer's API tokens (issue 35): list, create (shown once), revoke. */
export function ApiTokensPage() {
  const { data, isError, error, refetch, isFetching } = useApiTokens();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <header className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">API tokens</h1>
          <p className="mt-2 text-slate-600 dark:text-slate-400">
            Call the Meshwork API from your own systems with <code>Authorization: Bearer mw_live_…</code>. See the{' '}
            <Link to="/documentation#api-reference" className="font-medium text-brand-600 underline dark:text-brand-400">
              API reference
            </Link>
            .
          </p>
        </div>
        {data && data.plan_scope !== 'none' && (
          <Button onClick={() => setCreating(true)}>
            <KeyRound className="size-4" aria-hidden />
            Create token
          </Button>
        )}
      </header>
      {!data && isError && <LoadFailureScreen error={error} onRetry={refetch} retrying={isFetching} />}
      {!data && !isError && <PageSpinner />}
      {data && (
        <>
          {data.plan_scope !== 'read_write' && (
            <Card role="note" className="mb-6 p-4 text-sm text-slate-700 dark:text-slate-200">
              {data.plan_scope === 'none'
                ? 'Your plan does not include API tokens.'
                : `Your plan allows read-only tokens, ${data.requests_per_minute} requests a minute each.`}{' '}
              <Link to="/pricing" className="font-medium text-brand-600 underline dark:text-brand-400">
                Upgrade to Pro
              </Link>{' '}
              for read-write tokens and a higher rate.
            </Card>
          )}
          <Card className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-slate-200 text-slate-500 dark:border-slate-800 dark:text-slate-400">
                <tr>
                  {['Name', 'Token', 'Scope', 'Created', 'Last used', 'Expires', ''].map((heading) => (
                    <th key={heading} scope="col" className="px-4 py-3 font-medium">
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.tokens.length === 0 && (
                  <tr>
                    <td colSpan={7} className="px-4 py-6 text-center text-slate-500 dark:text-slate-400">
                      No API tokens yet.
                    </td>
                  </tr>
                )}
                {data.tokens.map((token) => (
                  <tr key={token.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                    <td className="px-4 py-3 font-medium text-slate-900 dark:text-white">{token.name}</td>
                    <td className="px-4 py-3 font-mono text-xs">
                      {token.prefix}…{token.last_four}
                    </td>
                    <td className="px-4 py-3">{SCOPES[token.scope]}</td>
                    <td className="px-4 py-3">{formatDay(token.created_at)}</td>
                    <td className="px-4 py-3">{token.last_used_at ? formatDay(token.last_used_at) : 'Never'}</td>
                    <td className="px-4 py-3">{token.expires_at ? formatDay(token.expires_at) : 'Never'}</td>
                    <td className="px-4 py-3 text-right">
                      <Button variant="ghost" size="sm" onClick={() => setRevoking(token)} aria-label={`Revoke ${token.name}`}>
                        Revoke
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        </>
      )}
      {creating && data && <CreateTokenDialog readWriteAllowed={data.plan_scope === 'read_write'} onClose={() => setCreating(false)} />}
      {revoking && <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} />}
    </div>
  );
}

/** Asks before revoking: requests with the token are refused from then on, and it cannot be undone. */
function RevokeTokenDialog({ token, onClose }: { token: ApiToken; onClose: () => void }) {
  const revoke = useRevokeApiToken();
  const confirm = () =>
    revoke.mutate(token.id, {
      onSuccess: () => {
        notifySuccess(`Token "${token.name}" revoked.`);
        onClose();
      },
      onError: (cause) => notifyFailure('Could not revoke the token.', cause),
    });
  return (
    <Dialog title="Revoke API token" onClose={onClose} dismissible={!revoke.isPending}>
      <p className="text-sm text-slate-700 dark:text-slate-200">
        Revoke <strong>{token.name}</strong>? Every request with it is refused from now on. This cannot be undone.
      </p>
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose} disabled={revoke.isPending}>
          Cancel
        </Button>
        <Button onClick={confirm} disabled={revoke.isPending} className="bg-red-600! text-white! hover:bg-red-700!">
          {revoke.isPending && <Spinner />}
          Revoke token
        </Button>
      </div>
    </Dialog>
  );
}
