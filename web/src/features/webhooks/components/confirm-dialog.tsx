import type { ReactNode } from 'react';
import { Button } from '../../../shared/ui/button';
import { Dialog } from '../../../shared/ui/dialog';
import { Spinner } from '../../../shared/ui/spinner';

/** Asks before deleting an endpoint, which cannot be undone. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  pending,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog title={title} onClose={onClose} dismissible={!pending}>
      <div className="text-sm text-slate-700 dark:text-slate-200">{children}</div>
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button onClick={onConfirm} disabled={pending} className="bg-red-600! text-white! hover:bg-red-700!">
          {pending && <Spinner />}
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
