import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../shared/session/use-session';
import { PageSpinner } from '../shared/ui/spinner';

/** Signed-in routes: others go to /login, which sends them back here afterwards. */
export function RequireAuth() {
  const session = useSession();
  const { pathname, search, hash } = useLocation();
  if (session.status === 'loading') return <PageSpinner label="Checking your session…" />;
  if (session.status === 'anonymous') return <Navigate to="/login" replace state={{ from: { pathname, search, hash } }} />;
  return <Outlet />;
}
