import { Admin, Resource } from 'react-admin';
import { BrowserRouter } from 'react-router';
import analytics from '../analytics';
import audit from '../audit';
import { authProvider } from '../auth/auth-provider';
import { Dashboard } from '../dashboard/dashboard';
import { AccessDenied } from '../layout/access-denied';
import { ConsoleLayout } from '../layout/console-layout';
import { ConsoleLoading } from '../layout/console-loading';
import { TopRightNotification } from '../layout/top-right-notification';
import models from '../models';
import payments from '../payments';
import plans from '../plans';
import users from '../users';
import { dataProvider } from './data-provider';
import { DirectionProvider, directionOf, useStoredLocale } from './direction';
import { i18nProvider } from './i18n-provider';
import { store } from './store';
import { consoleThemes } from './themes';

/**
 * The staff console. Routes are real paths under /admin (as in the spec: /admin/users, ...),
 * so whatever serves admin/dist must answer /admin/* with index.html. The session is the
 * customer site's: signed-out visitors are sent to its /login, customers to its /dashboard.
 */
export function App() {
  const locale = useStoredLocale(store, i18nProvider.getLocale());
  const themes = consoleThemes(directionOf(locale));
  return (
    <DirectionProvider locale={locale}>
      <BrowserRouter basename="/admin">
        <Admin
          title="Meshwork Console"
          store={store}
          authProvider={authProvider}
          requireAuth
          dataProvider={dataProvider}
          i18nProvider={i18nProvider}
          theme={themes.light}
          darkTheme={themes.dark}
          layout={ConsoleLayout}
          loading={ConsoleLoading}
          accessDenied={AccessDenied}
          notification={TopRightNotification}
          dashboard={Dashboard}
          // Meshwork promises that nothing leaves the customer's network; react-admin would otherwise ping marmelab.
          disableTelemetry
        >
          <Resource name="users" {...users} />
          <Resource name="plans" {...plans} />
          <Resource name="payments" {...payments} />
          <Resource name="analytics" {...analytics} />
          <Resource name="models" {...models} />
          <Resource name="audit" {...audit} />
        </Admin>
      </BrowserRouter>
    </DirectionProvider>
  );
}
