import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { PUBLIC_URL_PLACEHOLDER } from '@meshwork/contracts';
import { logger } from '../logging/logger';
import { serveCrawlerFiles } from './crawler-files';
import { CSP_NONCE_PLACEHOLDER, cspNonce } from './security-headers';
import { NOT_FOUND_PAGE, siteRoutes } from './site-routes';

/**
 * Serves the built customer site at / and the staff console at /admin/ from the same
 * origin as the api, as production does. Both are single-page apps: a page path that is
 * not a file gets its prerendered page if the build wrote one (<path>/index.html, web/scripts/
 * prerender.mjs), else the app's shell (shell.html, or index.html where nothing is
 * prerendered); /api paths never do. A path that is none of the customer site's (its build's
 * table of routes) is answered 404 with its not-found page, so crawlers and monitors see it.
 *
 * Files come precompressed when the build made a brotli or gzip copy (infra/scripts/
 * precompress.mjs) and the browser takes it. Vite's hashed assets (/assets/) never change
 * under their name: cached for a year as immutable. Other files for an hour; pages revalidate.
 */
export function serveSites(app: Express, sites: { webDist: string; adminDist: string; sitePagesDir?: string; publicUrl: string }): void {
  serveCrawlerFiles(app, sites.publicUrl);
  mount(app, '/admin', sites.adminDist, sites.publicUrl);
  mount(app, '/', sites.webDist, sites.publicUrl, sites.sitePagesDir);
}

/**
 * `pagesDir`: pages rendered with this installation's data (DATA_DIR/site, written by `npm
 * start`), preferred over the build's data-less ones while they are newer than the build. They
 * live with the data, not in the build, so the build stays the same for every installation.
 */
function mount(app: Express, base: string, dist: string, publicUrl: string, pagesDir?: string): void {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) {
    logger.warn({ dist }, `no build at ${dist}: ${base} is not served (npm start builds it)`);
    return;
  }
  // index.html is always the page route's, never a plain file: it may need this answer's nonce.
  // No redirect of /pricing to /pricing/: a prerendered page's folder is a page, not a listing.
  const files = express.static(dist, { index: false, redirect: false, maxAge: '1h', setHeaders: cacheHeaders });
  const precompressed = precompressedFiles(dist);
  // The console routes in the browser alone: only the customer site's paths are known here.
  const isSitePath = base === '/' ? siteRoutes(dist) : () => null;
  // Api calls never name a file: spare them the file-system lookup.
  app.use(base, (request: Request, response: Response, next: NextFunction) => {
    if (request.originalUrl.startsWith('/api/') || isIndex(request.path)) return next();
    precompressed(request, response, () => files(request, response, next));
  });
  app.get(
    base === '/' ? /^\/(?!api\/|admin(\/|$)).*/ : new RegExp(`^${base}(/.*)?$`),
    (request: Request, response: Response, next: NextFunction) => {
      if (!request.accepts('html') || (path.extname(request.path) && !isIndex(request.path))) return next();
      const pagePath = base === '/' ? request.path : request.path.slice(base.length) || '/';
      if (isSitePath(pagePath.replace(/\/index\.html$/, '') || '/') === false)
        return void sendPage(notFoundFile(dist), publicUrl, response, 404).catch(next);
      sendPage(pageFile(dist, pagePath, pagesDir), publicUrl, response).catch(next);
    },
  );
}

const YEAR_SECONDS = 365 * 24 * 3600;

/** Hashed build assets are immutable under their name; anything else may change with a deploy. */
function cacheHeaders(response: Response, file: string): void {
  if (file.split(path.sep).includes('assets')) response.setHeader('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`);
}

/** The encodings the build writes, best first, with the suffix of their copies. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * Answers a GET for a file that has a compressed copy the browser accepts with that copy,
 * typed as the original; anything else goes on to the plain static files. Which copies
 * exist is read from the file system at each request (cheap, and right after a rebuild).
 */
function precompressedFiles(dist: string) {
  const root = path.resolve(dist);
  return (request: Request, response: Response, next: () => void) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const file = fileOf(root, request.path);
    if (!file) return next();
    response.vary('Accept-Encoding');
    const encoding = ENCODINGS.find((e) => request.acceptsEncodings(e.name) === e.name && fs.existsSync(file + e.suffix));
    if (!encoding || !fs.existsSync(file)) return next();
    response.setHeader('Content-Encoding', encoding.name);
    response.type(path.extname(file));
    cacheHeaders(response, file);
    response.sendFile(file + encoding.suffix, { maxAge: '1h', cacheControl: !response.getHeader('Cache-Control') }, (error) => {
      // Gone since the check (a rebuild): the plain file, if any, as if there had been no copy.
      if (error && !response.headersSent) {
        response.removeHeader('Content-Encoding');
        next();
      }
    });
  };
}

/** The file a request path names inside `root`, or null for a path that is malformed or leads outside it. */
function fileOf(root: string, requestPath: string): string | null {
  try {
    const file = path.resolve(root, `.${decodeURIComponent(requestPath)}`);
    return file.startsWith(root + path.sep) ? file : null;
  } catch {
    return null;
  }
}

const isIndex = (requestPath: string) => path.posix.basename(requestPath) === 'index.html';

/**
 * The page for a path inside the mount: its HTML rendered with this installation's data if that
 * is newer than the build (a page from before a rebuild names assets that are gone), else the
 * build's prerendered HTML, else the app's shell.
 */
function pageFile(dist: string, pagePath: string, pagesDir?: string): string {
  const page = pagePath.replace(/\/index\.html$/, '') || '/';
  const shell = path.join(dist, 'shell.html');
  const withData = pagesDir && prerenderedIn(pagesDir, page);
  if (withData && modifiedAt(withData) >= modifiedAt(shell)) return withData;
  const prerendered = prerenderedIn(dist, page);
  if (prerendered) return prerendered;
  return fs.existsSync(shell) ? shell : path.join(dist, 'index.html');
}

/** The site's prerendered not-found page, else its shell (which renders the same page in the browser). */
function notFoundFile(dist: string): string {
  const page = path.join(dist, NOT_FOUND_PAGE);
  const shell = path.join(dist, 'shell.html');
  return fs.existsSync(page) ? page : fs.existsSync(shell) ? shell : path.join(dist, 'index.html');
}

/** `<folder>/<page>/index.html` if it exists (and the page stays inside the folder), else null. */
function prerenderedIn(folder: string, page: string): string | null {
  const root = path.resolve(folder);
  const pageFolder = page === '/' ? root : fileOf(root, page);
  const file = pageFolder && path.join(pageFolder, 'index.html');
  return file && fs.existsSync(file) ? file : null;
}

const modifiedAt = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Number.POSITIVE_INFINITY;

/**
 * A page, read afresh (a rebuild renames the assets it names), never cached without asking,
 * with this answer's CSP nonce and the public address where the build left placeholders.
 */
async function sendPage(page: string, publicUrl: string, response: Response, status = 200): Promise<void> {
  let html = await fs.promises.readFile(page, 'utf8');
  if (html.includes(CSP_NONCE_PLACEHOLDER)) html = html.replaceAll(CSP_NONCE_PLACEHOLDER, cspNonce(response));
  html = html.replaceAll(PUBLIC_URL_PLACEHOLDER, publicUrl.replace(/[&"<>]/g, encodeURIComponent));
  response.setHeader('Cache-Control', 'no-cache');
  response.status(status).type('html').send(html);
}
