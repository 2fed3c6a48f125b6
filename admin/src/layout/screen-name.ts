/**
 * The console screen a path shows, as its error boundary names it in a crash report: the
 * dashboard, `<resource>.<list|create|edit|show>` for react-admin's resource routes, or the
 * path itself for custom routes. Paths are the router's, without the /admin base.
 */
export function screenOf(pathname: string, resources: readonly string[]): string {
  const [first, second, third] = pathname.split('/').filter(Boolean);
  if (!first) return 'dashboard';
  if (!resources.includes(first)) return pathname.replace(/^\/+|\/+$/g, '');
  if (second === undefined) return `${first}.list`;
  if (second === 'create' && third === undefined) return `${first}.create`;
  return third === 'show' ? `${first}.show` : `${first}.edit`;
}
