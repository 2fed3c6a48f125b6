import { Alert } from '@mui/material';
import type { ReactNode } from 'react';
import { usePermissions, useTranslate } from 'react-admin';
import type { ConsolePermissions } from './auth-provider';

/**
 * Whether the signed-in user may change things: staff may, auditors (read-only staff) may not.
 * The server refuses an auditor's every write anyway; this keeps the controls for them out of sight.
 */
export function useCanWrite(): boolean {
  const { permissions } = usePermissions<ConsolePermissions>();
  return permissions?.isStaff === true;
}

/**
 * Its children for staff; for auditors `fallback`, by default nothing. A write page reached by
 * its address says why it is not there rather than offering a form the server would refuse.
 */
export function WriteOnly({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return useCanWrite() ? children : fallback;
}

/** What an auditor sees in place of a page that only changes things. */
export function ReadOnlyNotice() {
  const translate = useTranslate();
  return (
    <Alert severity="info" sx={{ mt: 2 }}>
      {translate('meshwork.auth.read_only')}
    </Alert>
  );
}
