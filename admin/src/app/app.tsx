import { Admin } from 'react-admin';
import { BrowserRouter } from 'react-router';
import { Dashboard } from '../dashboard/dashboard';
import { ConsoleReady } from './console-ready';
import { dataProvider } from './data-provider';
import { i18nProvider } from './i18n-provider';

/**
 * The staff console. Routes are real paths under /admin (as in the spec: /admin/users, ...),
 * so whatever serves admin/dist must answer /admin/* with index.html.
 */
export function App() {
  return (
    <BrowserRouter basename="/admin">
      <Admin
        title="Meshwork Console"
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        dashboard={Dashboard}
        ready={ConsoleReady}
        // Meshwork promises that nothing leaves the customer's network; react-admin would otherwise ping marmelab.
        disableTelemetry
      />
    </BrowserRouter>
  );
}
