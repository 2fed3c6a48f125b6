/**
 * Pages of the customer site. They are absolute URLs on purpose: react-admin treats an
 * `http…` redirect as a full page navigation, while a path would stay inside /admin.
 */
export const API_BASE = '/api/v1';

/** The site's sign-in page, told to come back to the console page the user was on. */
export function siteLoginUrl(): string {
  const { origin, pathname, search } = window.location;
  return `${origin}/login?next=${encodeURIComponent(`${pathname}${search}`)}`;
}

/** The customer dashboard, where signed-in users who are not staff belong. */
export function siteDashboardUrl(): string {
  return `${window.location.origin}/dashboard`;
}
