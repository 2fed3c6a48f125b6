/* global document, localStorage, matchMedia */
// Before the first paint, so a dark page never flashes white; the same rule as src/shared/theme/theme.ts.
// A file rather than an inline script: the site's Content-Security-Policy runs no inline script.
try {
  const saved = localStorage.getItem('theme');
  const theme = saved === 'light' || saved === 'dark' ? saved : matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.style.colorScheme = theme;
} catch {
  // No storage (a locked-down browser): the app applies the theme once it starts.
}
