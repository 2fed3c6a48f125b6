import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { ConsoleMenu } from './console-menu';
import { StaffGate } from './staff-gate';

/**
 * react-admin's layout (its app bar carries the locale switcher, the theme toggle, refresh
 * and the user menu), shown to staff only.
 */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <StaffGate>
      <Layout menu={ConsoleMenu}>{children}</Layout>
    </StaffGate>
  );
}
