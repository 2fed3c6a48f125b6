import { TriangleAlert } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ApiTokenScope, CreatedApiToken } from '@meshwork/contracts';
import { errorMessage } from '../../../shared/api/api-error';
import { Button } from '../../../shared/ui/button';
import { Dialog } from '../../../shared/ui/dialog';
import { ShownOnceSecret } from '../../../shared/ui/shown-once-secret';
import { Spinner } from '../../../shared/ui/spinner';
import { TextField } from '../../../shared/ui/text-field';
import { useCreateApiToken } from '../api/api-tokens-api';

const SELECT =
  'block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

/** Expiry choices, in days; null never expires. */
const EXPIRIES: [string, number | null][] = [
  ['30 days', 30],
  ['90 days', 90],
  ['1 year', 365],
  ['Never', null],
];

/** Names a token, picks its scope (read_write only when the plan allows it) and expiry; then shows the secret once. */
export function CreateTokenDialog({ readWriteAllowed, onClose }: { readWriteAllowed: boolean; onClose: () => void }) {
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [expiry, setExpiry] = useState('0');
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  if (created) return <TokenSecret token={created} onClose={onClose} />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, scope, expires_in_days: EXPIRIES[Number(expiry)]![1] }, { onSuccess: setCreated });
  };
  return (
    <Dialog title="Create API token" onClose={onClose} dismissible={!create.isPending}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        {create.isError && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
            {errorMessage(create.error, 'Could not create the token.')}
          </p>
        )}
        <TextField label="Name" autoFocus required maxLength={80} value={name} onChange={(event) => setName(event.target.value)} />
        <div>
          <label htmlFor="token-scope" className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
            Scope
          </label>
          <select id="token-scope" className={SELECT} value={scope} onChange={(event) => setScope(event.target.value as ApiTokenScope)}>
            <option value="read">Read only (GET)</option>
            <option value="read_write" disabled={!readWriteAllowed}>
              Read and write{readWriteAllowed ? '' : ' (Pro and Enterprise)'}
            </option>
          </select>
        </div>
        <div>
          <label htmlFor="token-expiry" className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
            Expires after
          </label>
          <select id="token-expiry" className={SELECT} value={expiry} onChange={(event) => setExpiry(event.target.value)}>
            {EXPIRIES.map(([label], index) => (
              <option key={label} value={String(index)}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending || name.trim() === ''}>
            {create.isPending && <Spinner />}
            Create token
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The new token's secret, this once, with a copy button: the api keeps only its hash. */
function TokenSecret({ token, onClose }: { token: CreatedApiToken; onClose: () => void }) {
  return (
    <Dialog title={`Token "${token.name}" created`} onClose={onClose} className="max-w-2xl">
      <p role="note" className="flex gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
        <TriangleAlert className="size-5 shrink-0" aria-hidden />
        Copy this token now: it will not be shown again. Anyone who has it can use the API as you, so keep it secret.
      </p>
      <ShownOnceSecret label="API token" value={token.token} noun="token" />
      <pre className="mt-3 overflow-auto rounded-xl bg-slate-950 p-4 text-xs leading-5 text-slate-100">
        <code>{`curl -H "Authorization: Bearer ${token.token.slice(0, 12)}…" ${window.location.origin}/api/v1/users/dashboard/`}</code>
      </pre>
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose}>Done</Button>
      </div>
    </Dialog>
  );
}
