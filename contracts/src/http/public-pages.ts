/**
 * The customer site's public pages: what a visitor reaches without signing in and what search
 * engines may index (the sitemap lists them; issue 16 prerenders them). The signed-in pages,
 * the console and the api are left out of both.
 */
export const PUBLIC_PAGES = [
  '/',
  '/features',
  '/pricing',
  '/documentation',
  '/download',
  '/contact',
  '/login',
  '/register',
  '/terms',
  '/privacy',
] as const;

/** Paths crawlers are asked to leave alone: the api, the console and the signed-in app. */
export const PRIVATE_PATH_PREFIXES = [
  '/api/',
  '/admin/',
  '/dashboard',
  '/profile',
  '/billing',
  '/networks',
  '/activate',
  '/checkout/',
  '/settings/',
] as const;

/**
 * Stands for the installation's public address (PUBLIC_URL) in prerendered pages, which are
 * built before that address is known: the api writes it in as it serves each page.
 */
export const PUBLIC_URL_PLACEHOLDER = 'MESHWORK_PUBLIC_URL';
