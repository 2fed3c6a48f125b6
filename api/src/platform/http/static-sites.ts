import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { logger } from '../logging/logger';

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
  const files = express.static(dist, { index: 'index.html', maxAge: '1h', setHeaders: noCacheForHtml });
  // Api calls never name a file: spare them the file-system lookup.
  app.use(base, (request: Request, response: Response, next: NextFunction) =>
    request.originalUrl.startsWith('/api/') ? next() : files(request, response, next),
  );
  app.get(
    base === '/' ? /^\/(?!api\/|admin(\/|$)).*/ : new RegExp(`^${base}(/.*)?$`),
    (request: Request, response: Response, next: NextFunction) => {
      if (!request.accepts('html') || path.extname(request.path)) return next();
      response.setHeader('Cache-Control', 'no-cache');
      response.sendFile(index);
    },
  );
}

/** Hashed assets may be cached; the HTML that names them must not be. */
function noCacheForHtml(response: Response, file: string): void {
  if (file.endsWith('.html')) response.setHeader('Cache-Control', 'no-cache');
}
