import { Layout } from 'react-admin';
import { Dashboard } from '../dashboard/dashboard';

/**
 * react-admin shows its "ready" page instead of the layout while an Admin has no Resource.
 * Until the first resource lands, show the dashboard in the normal layout; react-admin stops
 * using this component by itself as soon as a Resource exists.
 */
export function ConsoleReady() {
  return (
    <Layout>
      <Dashboard />
    </Layout>
  );
}
