import { Alert, Button } from '@mui/material';
import { useCallback } from 'react';
import { useNotify, useTranslate } from 'react-admin';

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : undefined;
}

interface LoadFailedProps {
  /** The i18n key of the screen's message. */
  message: string;
  /** Asks again: shown as Try Again when given. */
  onRetry?: () => void;
  /** While asking again, Try Again waits. */
  retrying?: boolean;
}

/** The screen's load-failure message (spec section 8) where its content would be; no sample data instead. */
export function LoadFailed({ message, onRetry, retrying = false }: LoadFailedProps) {
  const translate = useTranslate();
  const retry = onRetry ? (
    <Button color="inherit" size="small" onClick={onRetry} disabled={retrying}>
      {translate('meshwork.load_failed.try_again')}
    </Button>
  ) : undefined;
  return (
    <Alert severity="error" sx={{ mt: 2 }} action={retry}>
      {translate(message)}
    </Alert>
  );
}

/**
 * A query's `onError` that toasts the screen's load-failure message. 401 and 403 are the
 * session's business (authProvider.checkError), not a load failure.
 */
export function useLoadFailureToast(message: string): (error: unknown) => void {
  const notify = useNotify();
  return useCallback(
    (error) => {
      const status = statusOf(error);
      if (status !== 401 && status !== 403) notify(message, { type: 'error' });
    },
    [notify, message],
  );
}
