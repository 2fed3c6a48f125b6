import { useId, useState } from 'react';
import { Button } from '../../../shared/ui/button';
import { Dialog } from '../../../shared/ui/dialog';
import { Spinner } from '../../../shared/ui/spinner';

/** How long the old secret may keep signing beside the new one: time to deploy the new secret to the receiver. */
const OVERLAPS = [
  { hours: 0, label: 'Stop using the old secret at once' },
  { hours: 1, label: 'Keep the old secret for 1 hour' },
  { hours: 24, label: 'Keep the old secret for 24 hours' },
  { hours: 72, label: 'Keep the old secret for 72 hours' },
] as const;

/** Asks how long the old secret overlaps the new one, then rolls it; the new secret is shown by the caller. */
export function RollSecretDialog({
  url,
  pending,
  error,
  onRoll,
  onClose,
}: {
  url: string;
  pending: boolean;
  error: Error | null;
  onRoll: (overlapHours: number) => void;
  onClose: () => void;
}) {
  const [hours, setHours] = useState(24);
  const name = useId();
  return (
    <Dialog title="Roll Signing Secret" onClose={onClose} dismissible={!pending}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onRoll(hours);
        }}
      >
        <p className="text-sm text-slate-700 dark:text-slate-200">
          A new secret signs the requests to <span className="font-mono break-all">{url}</span>. While both are in use each request carries
          two signatures, so your receiver keeps working until it has the new one.
        </p>
        {error && (
          <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
            {error.message}
          </p>
        )}
        <fieldset className="mt-4 space-y-2">
          <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">Overlap</legend>
          {OVERLAPS.map((overlap) => (
            <label key={overlap.hours} className="flex items-center gap-2.5 text-sm text-slate-700 dark:text-slate-200">
              <input
                type="radio"
                name={name}
                value={overlap.hours}
                checked={hours === overlap.hours}
                onChange={() => setHours(overlap.hours)}
                className="size-4 accent-brand-600"
              />
              {overlap.label}
            </label>
          ))}
        </fieldset>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending && <Spinner />}
            Roll Secret
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
