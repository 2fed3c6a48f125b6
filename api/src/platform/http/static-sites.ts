import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { logger } from '../logging/logger';
import { CSP_NONCE_PLACEHOLDER, cspNonce } from './security-headers';

/**
 * Serves the built customer site at / and the staff console at /admin/ from the same
 * origin as the api, as production does. Both are single-page apps: a page path that is
 * not a file gets the app's index.html; /api paths never do.
 */
export function serveSites(app: Express, sites: { webDist: string; adminDist: string }): void {
  mount(app, '/admin', sites.adminDist);
  mount(app, '/', sites.webDist);
}

function mount(app: Express, base: string, dist: string): void {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) {
    logger.warn({ dist }, `no build at ${dist}: ${base} is not served (npm start builds it)`);
    return;
  }
  // index.html is always the page route's, never a plain file: it may need this answer's nonce.
  const files = express.static(dist, { index: false, maxAge: '1h' });
  // Api calls never name a file: spare them the file-system lookup.
  app.use(base, (request: Request, response: Response, next: NextFunction) =>
    request.originalUrl.startsWith('/api/') || isIndex(request.path) ? next() : files(request, response, next),
  );
  app.get(
    base === '/' ? /^\/(?!api\/|admin(\/|$)).*/ : new RegExp(`^${base}(/.*)?$`),
    (request: Request, response: Response, next: NextFunction) => {
      if (!request.accepts('html') || (path.extname(request.path) && !isIndex(request.path))) return next();
      sendPage(index, response).catch(next);
    },
  );
}

const isIndex = (requestPath: string) => path.posix.basename(requestPath) === 'index.html';

/**
 * The app's index.html, read afresh (a rebuild renames the assets it names), never cached
 * without asking, and with this answer's CSP nonce where the build left the placeholder.
 */
async function sendPage(index: string, response: Response): Promise<void> {
  let html = await fs.promises.readFile(index, 'utf8');
  if (html.includes(CSP_NONCE_PLACEHOLDER)) html = html.replaceAll(CSP_NONCE_PLACEHOLDER, cspNonce(response));
  response.setHeader('Cache-Control', 'no-cache');
  response.type('html').send(html);
}
