// The two settings a release build takes from its caller, checked with errors that say what to pass.

export const ALL_PLATFORMS = ['linux', 'windows'];

/** The origin a release names as its site: an http(s) origin with no path, or null for none. */
export function parseOrigin(value) {
  if (value === undefined || value === null || value === '') return null;
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--origin must be an http(s) origin such as https://meshwork.example.com, not "${value}"`);
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw new Error(`--origin must use http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/')
    throw new Error(`--origin must be an origin only (scheme, host and port, no path, query or credentials), not "${value}"`);
  return url.origin;
}

/** 'linux', 'windows' or 'all' as the list of platforms to build. */
export function parsePlatforms(value = 'all') {
  if (value === 'all') return [...ALL_PLATFORMS];
  if (ALL_PLATFORMS.includes(value)) return [value];
  throw new Error(`--platform must be linux, windows or all, not "${value}"`);
}
