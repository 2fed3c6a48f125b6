import type { ReactNode } from 'react';
import { usePermissions } from 'react-admin';
import type { ConsolePermissions } from '../auth/auth-provider';
import { AccessDenied } from './access-denied';
import { ConsoleLoading } from './console-loading';

/**
 * Staff and auditors only. The session check already sent signed-out visitors to the site's
 * /login; here a signed-in customer is turned away before any console page, and so any admin
 * call, renders. What an auditor may not change is hidden screen by screen (auth/use-can-write.tsx).
 */
export function StaffGate({ children }: { children: ReactNode }) {
  const { permissions, isPending } = usePermissions<ConsolePermissions>();
  if (isPending) return <ConsoleLoading />;
  if (!permissions?.isStaff && !permissions?.isAuditor) return <AccessDenied />;
  return children;
}
