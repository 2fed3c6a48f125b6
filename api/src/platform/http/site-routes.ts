import fs from 'node:fs';
import path from 'node:path';
import { logger } from '../logging/logger';

/**
 * The build's table of the site's own paths (web/scripts/prerender.mjs writes it from the site's
 * router): React Router patterns, `:name` for one segment, the catch-all left out.
 */
export const SITE_ROUTES_FILE = 'site-routes.json';
/** The site's not-found page, prerendered beside it, answered with a 404 to any other path. */
export const NOT_FOUND_PAGE = 'not-found.html';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern as its router matches it: whole segments, any letter case, a trailing slash or not. */
function matcherOf(pattern: string): RegExp {
  const segments = pattern.split('/').filter(Boolean);
  const body = segments.map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment))).join('/');
  return new RegExp(`^/${body}/?$`, 'i');
}

/**
 * Whether a page path is one of the site's, read from `dist`'s table; null when the build has
 * none (built before it, or unreadable): then every path is the app's, as before. The table is
 * read again when a rebuild replaces it.
 */
export function siteRoutes(dist: string): (pagePath: string) => boolean | null {
  const file = path.join(dist, SITE_ROUTES_FILE);
  let cached: { modifiedAt: number; matchers: RegExp[] | null } | null = null;
  return (pagePath) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return null;
    if (cached?.modifiedAt !== stat.mtimeMs) cached = { modifiedAt: stat.mtimeMs, matchers: readTable(file) };
    return cached.matchers ? cached.matchers.some((matcher) => matcher.test(pagePath)) : null;
  };
}

function readTable(file: string): RegExp[] | null {
  try {
    const patterns: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!Array.isArray(patterns) || !patterns.every((p) => typeof p === 'string')) throw new Error('not a list of paths');
    return patterns.map(matcherOf);
  } catch (error) {
    logger.warn({ file, err: error }, 'the site’s table of paths is unreadable: every path is answered as one of the site’s');
    return null;
  }
}
