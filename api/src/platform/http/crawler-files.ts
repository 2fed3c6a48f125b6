import type { Express, Response } from 'express';
import { PRIVATE_PATH_PREFIXES, PUBLIC_PAGES } from '@meshwork/contracts';

/**
 * robots.txt and sitemap.xml for the customer site, written for this installation's public
 * address (PUBLIC_URL), never for whatever Host a request names: the public pages may be
 * indexed, the api, the console and the signed-in app may not.
 */
export function serveCrawlerFiles(app: Express, publicUrl: string): void {
  const robots = [
    'User-agent: *',
    'Allow: /',
    ...PRIVATE_PATH_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
  const sitemap = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...PUBLIC_PAGES.map((page) => `  <url><loc>${escapeXml(publicUrl + (page === '/' ? '/' : page))}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
  const send = (type: string, body: string) => (_request: unknown, response: Response) => {
    response.setHeader('Cache-Control', 'public, max-age=3600');
    response.type(type).send(body);
  };
  app.get('/robots.txt', send('text/plain', robots));
  app.get('/sitemap.xml', send('application/xml', sitemap));
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
