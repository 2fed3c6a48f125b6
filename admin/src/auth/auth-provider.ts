import { type AuthProvider, HttpError, type UserIdentity } from 'react-admin';
import { authorizedFetch, refreshSession } from './http-client';
import { API_BASE, siteLoginUrl } from './site-urls';
import { tokens } from './tokens';

/** The part of GET /profile/ the console reads. */
interface Profile {
  id: string;
  username?: string | null;
  email: string;
  first_name?: string;
  last_name?: string;
  is_staff: boolean;
  is_auditor: boolean;
}

/**
 * What `usePermissions()` returns. Staff read and change everything; auditors (read-only
 * staff) read every screen and change nothing (see auth/use-can-write.tsx). The two exclude each other.
 */
export interface ConsolePermissions {
  isStaff: boolean;
  isAuditor: boolean;
}

const permissionsOf = (user: Profile): ConsolePermissions => ({ isStaff: user.is_staff === true, isAuditor: user.is_auditor === true });

// getIdentity and getPermissions both need the profile: one request serves both.
let profile: Promise<Profile> | null = null;

function loadProfile(): Promise<Profile> {
  // Signed out: no request, the same answer the server would give.
  if (!tokens.getAccess() && !tokens.getRefresh()) return Promise.reject(new HttpError('Authentication required. Please log in.', 401));
  profile ??= authorizedFetch(`${API_BASE}/profile/`).then(
    ({ json }) => json as Profile,
    (error: unknown) => {
      profile = null;
      throw error;
    },
  );
  return profile;
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : undefined;
}

/** Sends the browser to the site's sign-in page; `message: false` because the page is left at once. */
const toSiteLogin = () => ({ redirectTo: siteLoginUrl(), message: false as const });

/**
 * The console has no sign-in page of its own: it rides on the customer site's session (the
 * JWT pair in localStorage). Signed-out visitors go to the site's /login; signed-in users who
 * are neither staff nor auditors are turned away by the layout's staff gate, without being signed out.
 */
export const authProvider: AuthProvider = {
  async login() {
    window.location.href = siteLoginUrl();
  },

  /** Only whether a session exists; an expired access token is renewed by the first call that needs it. */
  async checkAuth() {
    if (tokens.getAccess() || tokens.getRefresh()) return;
    throw toSiteLogin();
  },

  async checkError(error: unknown) {
    const status = statusOf(error);
    if (status === 401) {
      // The data provider has already refreshed once if it could; if tokens are left, try once more.
      if (tokens.getRefresh() && (await refreshSession())) return;
      profile = null;
      throw toSiteLogin();
    }
    if (status === 403) {
      // An auditor's write is refused with 403 too, and so is a call after the console was closed
      // to the caller. Only the profile tells them apart: read it afresh, and leave only if the
      // console is no longer theirs. A refused write stays on its screen, with its own toast.
      profile = null;
      const still = await loadProfile().then(permissionsOf, () => null);
      if (still?.isStaff || still?.isAuditor) return;
      // Staff rights were withdrawn: keep the site session, show why and leave.
      throw { logoutUser: false, redirectTo: '/access-denied', message: false };
    }
  },

  /** Ends the session on the server and, whatever it answers, in this browser (spec section 4). */
  async logout() {
    const refresh = tokens.getRefresh();
    const access = tokens.getAccess();
    profile = null;
    tokens.clear();
    if (refresh) {
      await fetch(`${API_BASE}/logout/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(access ? { Authorization: `Bearer ${access}` } : {}) },
        body: JSON.stringify({ refresh_token: refresh }),
      }).catch(() => undefined);
    }
    return siteLoginUrl();
  },

  async getIdentity(): Promise<UserIdentity> {
    const user = await loadProfile();
    const fullName = [user.first_name, user.last_name].filter(Boolean).join(' ');
    return { id: user.id, fullName: user.username || fullName || user.email };
  },

  async getPermissions(): Promise<ConsolePermissions> {
    return permissionsOf(await loadProfile());
  },
};
