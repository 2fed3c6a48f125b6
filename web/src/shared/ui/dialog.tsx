import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface DialogProps {
  title: ReactNode;
  description?: ReactNode;
  /** Asked to close (Escape, the close button); the owner decides by unmounting the dialog. */
  onClose: () => void;
  /** False while something must finish first: Escape and the close button then do nothing. */
  dismissible?: boolean;
  children: ReactNode;
  className?: string;
}

/**
 * A modal on the native <dialog>: the browser traps focus, makes the page behind it inert and
 * gives focus back on close. It is open while mounted.
 */
export function Dialog({ title, description, onClose, dismissible = true, children, className = 'max-w-lg' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  // The native listeners below are set once; these keep them reading the latest props.
  const latest = useRef({ dismissible, onClose });
  useEffect(() => {
    latest.current = { dismissible, onClose };
  }, [dismissible, onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    dialog.showModal();
    // Chrome closes a dialog on a second Escape even when `cancel` was prevented; reopen it while it must stay.
    const onNativeClose = () => {
      if (latest.current.dismissible) latest.current.onClose();
      else dialog.showModal();
    };
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('close', onNativeClose);
      dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (dismissible) onClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] rounded-2xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/60 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100 ${className}`}
    >
      <div className="p-6">
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-white">
            {title}
          </h2>
          <button
            type="button"
            onClick={onClose}
            disabled={!dismissible}
            aria-label="Close"
            className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:cursor-not-allowed disabled:opacity-40 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100"
          >
            <X className="size-5" aria-hidden />
          </button>
        </div>
        {description && (
          <p id={descriptionId} className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            {description}
          </p>
        )}
        <div className="mt-5">{children}</div>
      </div>
    </dialog>
  );
}
