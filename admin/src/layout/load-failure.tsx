import { Alert } from '@mui/material';
import { useCallback } from 'react';
import { useNotify, useTranslate } from 'react-admin';

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : undefined;
}

/** The screen's load-failure message (spec section 8) where its content would be; no sample data instead. */
export function LoadFailed({ message }: { message: string }) {
  const translate = useTranslate();
  return (
    <Alert severity="error" sx={{ mt: 2 }}>
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
