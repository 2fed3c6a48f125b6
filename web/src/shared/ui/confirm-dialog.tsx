import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { Spinner } from './spinner';

/** Asks before something that cannot be undone (delete a network or a webhook endpoint, revoke a device, remove a client). */
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
