import { useNavigate } from 'react-router';
import { useLogout } from '../shared/session/api/logout';
import { notifySuccess, TOAST_DURATION } from '../shared/toast/notify';

/** Sign out from the top bar: go home, end the session, say so. */
export function useSignOut(): { signOut: () => void; pending: boolean } {
  const navigate = useNavigate();
  const logout = useLogout();
  return {
    pending: logout.isPending,
    // Home first, so a signed-in page is not bounced to /login as the user disappears. A promise chain
    // rather than per-call callbacks: the menu that started this unmounts before it ends.
    signOut: () =>
      void Promise.resolve(navigate('/'))
        .then(() => logout.mutateAsync())
        .then(() => notifySuccess('Logged out successfully', TOAST_DURATION.topBar)),
  };
}
