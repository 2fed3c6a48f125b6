import { formatJoinCode, normalizeJoinCode, type JoinCode } from '@meshwork/contracts';
import { useState } from 'react';
import { notifyFailure } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import { useCreateJoinCode } from '../api/create-join-code';
import { formatCountdown } from './network-format';
import { useNow } from './use-now';

/** The api sends the code as XXXX-XXXX; any other spelling of it is shown the same way. */
const shownCode = (code: string) => {
  const normal = normalizeJoinCode(code);
  return normal ? formatJoinCode(normal) : code;
};

/** A fresh join code for the network's clients, shown as XXXX-XXXX with the time it has left. */
export function JoinCodePanel({ networkId }: { networkId: string }) {
  const createCode = useCreateJoinCode();
  const [code, setCode] = useState<JoinCode | null>(null);
  const now = useNow(1000);
  const left = code ? formatCountdown(code.expires_at, now) : null;

  const fresh = () =>
    createCode.mutate(networkId, {
      onSuccess: setCode,
      onError: (error) => notifyFailure('Failed to create a join code', error),
    });

  return (
    <div className="flex flex-wrap items-center gap-3">
      {code && left && (
        <p className="text-sm text-slate-700 dark:text-slate-200">
          Join code{' '}
          <output className="font-mono font-bold text-lg tracking-widest text-slate-900 dark:text-white" aria-label="Join code">
            {shownCode(code.code)}
          </output>{' '}
          <span className="text-slate-500 dark:text-slate-400" role="timer" aria-live="off">
            expires in {left}
          </span>
        </p>
      )}
      {code && !left && <p className="text-sm text-slate-500 dark:text-slate-400">The join code has expired.</p>}
      <Button variant="secondary" size="sm" onClick={fresh} disabled={createCode.isPending}>
        {createCode.isPending && <Spinner />}
        {code ? 'New Join Code' : 'Show Join Code'}
      </Button>
    </div>
  );
}
