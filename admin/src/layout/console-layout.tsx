import type { ReactNode } from 'react';
import { Layout, useResourceDefinitions } from 'react-admin';
import { useLocation } from 'react-router';
import { ConsoleMenu } from './console-menu';
import { ScreenBoundary } from './screen-boundary';
import { screenOf } from './screen-name';
import { StaffGate } from './staff-gate';

/**
 * react-admin's layout (its app bar carries the locale switcher, the theme toggle, refresh
 * and the user menu), shown to staff and auditors. Every screen renders inside it, so the one
 * error boundary here guards each of them, named after the screen shown.
 */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  const { pathname, key } = useLocation();
  const resources = Object.keys(useResourceDefinitions());
  return (
    <StaffGate>
      {/* The content may be narrower than a wide table: the table scrolls in it, never the whole window. */}
      <Layout menu={ConsoleMenu} sx={{ '& .RaLayout-content': { minWidth: 0 } }}>
        <ScreenBoundary screen={screenOf(pathname, resources)} resetKey={key}>
          {children}
        </ScreenBoundary>
      </Layout>
    </StaffGate>
  );
}
