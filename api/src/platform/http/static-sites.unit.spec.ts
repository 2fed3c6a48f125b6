import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { compressAnswers } from './compress-answers';
import { serveSites } from './static-sites';

const PRECOMPRESS = path.resolve(__dirname, '../../../../infra/scripts/precompress.mjs');

/** The built sites as the browser gets them: precompressed copies by content negotiation, and cache headers by kind of file. */
describe('the sites’ files: compressed and cached', () => {
  let dist: string;
  const script = `console.log(${JSON.stringify('meshwork '.repeat(2000))});\n`;
  const app = express();

  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>Meshwork</title>${'<p>plans</p>'.repeat(200)}`);
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'tiny-XyZ789.js'), 'export {};\n');
    fs.writeFileSync(path.join(dist, 'licenses.txt'), `MIT\n${'Permission is hereby granted\n'.repeat(100)}`);
    // The build step itself, as `npm run build` runs it after vite.
    execFileSync(process.execPath, [PRECOMPRESS, dist]);
    app.use(compressAnswers);
    app.get('/api/v1/big/', (_request, response) => response.json({ plans: Array.from({ length: 100 }, (_, i) => ({ id: `plan-${i}` })) }));
    app.get('/api/v1/small/', (_request, response) => response.json({ ok: true }));
    serveSites(app, { webDist: dist, adminDist: path.join(dist, 'no-console'), publicUrl: 'https://ai.example.com' });
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  it('the build writes brotli and gzip copies beside text assets of 1 KB or more, and none for smaller ones', () => {
    const assets = fs.readdirSync(path.join(dist, 'assets')).sort();
    expect(assets).toEqual(['index-AbC123.js', 'index-AbC123.js.br', 'index-AbC123.js.gz', 'tiny-XyZ789.js']);
    const brotli = fs.readFileSync(path.join(dist, 'assets', 'index-AbC123.js.br'));
    expect(zlib.brotliDecompressSync(brotli).toString()).toBe(script);
    expect(brotli.length).toBeLessThan(script.length / 10);
  });

  it('serves a hashed asset as brotli, else gzip, else plain, typed as JavaScript and cached for a year as immutable', async () => {
    const asset = '/assets/index-AbC123.js';
    const asBrotli = await request(app).get(asset).set('Accept-Encoding', 'gzip, deflate, br').expect(200);
    expect(asBrotli.headers).toMatchObject({
      'content-encoding': 'br',
      'content-type': expect.stringMatching(/^text\/javascript|^application\/javascript/),
      'cache-control': 'public, max-age=31536000, immutable',
      vary: expect.stringMatching(/Accept-Encoding/),
    });
    expect(Number(asBrotli.headers['content-length'])).toBe(fs.statSync(path.join(dist, 'assets', 'index-AbC123.js.br')).size);
    expect(asBrotli.text).toBe(script);
    const asGzip = await request(app).get(asset).set('Accept-Encoding', 'gzip').expect(200);
    expect(asGzip.headers['content-encoding']).toBe('gzip');
    expect(asGzip.text).toBe(script);
    const plain = await request(app).get(asset).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.text).toBe(script);
  });

  it('keeps an hour for files outside assets/, revalidates pages, and compresses pages and big api JSON only', async () => {
    const licenses = await request(app).get('/licenses.txt').set('Accept-Encoding', 'br').expect(200);
    expect(licenses.headers).toMatchObject({ 'cache-control': 'public, max-age=3600', 'content-encoding': 'br' });
    const page = await request(app).get('/pricing').set('Accept', 'text/html').set('Accept-Encoding', 'br').expect(200);
    expect(page.headers).toMatchObject({ 'cache-control': 'no-cache', 'content-encoding': 'br' });
    expect(page.text).toContain('<title>Meshwork</title>');
    const big = await request(app).get('/api/v1/big/').set('Accept-Encoding', 'gzip').expect(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(big.body.plans).toHaveLength(100);
    const small = await request(app).get('/api/v1/small/').set('Accept-Encoding', 'gzip').expect(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    // A malformed path or one leading outside the build is no file: the app's page, or a refusal, never a file from elsewhere.
    for (const odd of ['/assets/%E0%A4%A', '/assets/..%2f..%2f..%2fetc%2fpasswd']) {
      const answer = await request(app).get(odd).set('Accept-Encoding', 'br');
      expect([200, 403, 404]).toContain(answer.status);
      expect(answer.text).not.toMatch(/root:/);
    }
  });

  it('tells crawlers the public pages at this installation’s address, and to leave the api, console and signed-in app alone', async () => {
    const robots = await request(app).get('/robots.txt').set('Host', 'evil.example').expect(200);
    expect(robots.text).toContain('Disallow: /admin/\nDisallow: /dashboard');
    expect(robots.text).toContain('Sitemap: https://ai.example.com/sitemap.xml');
    const sitemap = await request(app).get('/sitemap.xml').set('Host', 'evil.example').expect(200);
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/);
    const pages = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(pages).toContain('https://ai.example.com/');
    expect(pages).toContain('https://ai.example.com/pricing');
    expect(pages.some((page) => /dashboard|admin|evil/.test(page!))).toBe(false);
  });
});

/** The prerendered public pages (web/scripts/prerender.mjs): each path gets its own page, anything else the app's shell. */
describe('the customer site’s pages: prerendered where the build wrote one', () => {
  let dist: string;
  const app = express();
  const page = (name: string) => `<!doctype html><link rel="canonical" href="MESHWORK_PUBLIC_URL/${name}" /><div id="root">${name}</div>`;

  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-pages-'));
    fs.writeFileSync(path.join(dist, 'shell.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'index.html'), page('landing'));
    fs.mkdirSync(path.join(dist, 'pricing'));
    fs.writeFileSync(path.join(dist, 'pricing', 'index.html'), page('pricing'));
    serveSites(app, { webDist: dist, adminDist: path.join(dist, 'no-console'), publicUrl: 'https://ai.example.com' });
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  const html = async (url: string) => (await request(app).get(url).set('Accept', 'text/html').expect(200)).text;

  it('answers a public page with its prerendered HTML, with the public address written in, whichever way the path is spelled', async () => {
    for (const url of ['/pricing', '/pricing/', '/pricing/index.html']) {
      expect(await html(url)).toBe(
        '<!doctype html><link rel="canonical" href="https://ai.example.com/pricing" /><div id="root">pricing</div>',
      );
    }
    expect(await html('/')).toContain('<div id="root">landing</div>');
    expect(await html('/index.html')).toContain('<div id="root">landing</div>');
  });

  it('answers any other path with the empty shell, never a page from a folder it names or a file outside the build', async () => {
    for (const url of ['/dashboard', '/pricing/monthly', '/no-such-page/anywhere']) {
      expect(await html(url)).toBe('<!doctype html><div id="root"></div>');
    }
    for (const odd of ['/..%2f..%2fetc', '/pricing%2f..%2f..%2f..', '/%E0%A4%A']) {
      const answer = await request(app).get(odd).set('Accept', 'text/html');
      expect([200, 400, 404]).toContain(answer.status);
      if (answer.status === 200) expect(answer.text).toBe('<!doctype html><div id="root"></div>');
    }
  });
});

/** Pages rendered with an installation's data live in its data folder, not in the build every installation shares. */
describe('the site’s pages: the installation’s own, while they are newer than the build', () => {
  let dist: string;
  let pages: string;
  const app = express();
  const at = (file: string, seconds: number) => fs.utimesSync(file, seconds, seconds);

  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-dist-'));
    pages = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-site-'));
    fs.writeFileSync(path.join(dist, 'shell.html'), '<!doctype html><p>shell</p>');
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><p>home as built</p>');
    fs.mkdirSync(path.join(dist, 'pricing'));
    fs.writeFileSync(path.join(dist, 'pricing', 'index.html'), '<!doctype html><p>pricing as built</p>');
    fs.mkdirSync(path.join(pages, 'pricing'));
    fs.writeFileSync(path.join(pages, 'pricing', 'index.html'), '<!doctype html><p>pricing with our plans</p>');
    serveSites(app, { webDist: dist, adminDist: path.join(dist, 'no-console'), sitePagesDir: pages, publicUrl: 'https://ai.example.com' });
  });
  afterAll(() => {
    for (const folder of [dist, pages]) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('serves the page rendered with this installation’s data, else the build’s, else the shell', async () => {
    at(path.join(dist, 'shell.html'), 1_000);
    at(path.join(pages, 'pricing', 'index.html'), 2_000);
    expect((await request(app).get('/pricing').expect(200)).text).toContain('pricing with our plans');
    expect((await request(app).get('/').expect(200)).text).toContain('home as built');
    expect((await request(app).get('/dashboard').expect(200)).text).toContain('shell');
  });

  it('serves the build’s page when the build is newer (the installation’s names assets a rebuild removed)', async () => {
    at(path.join(dist, 'shell.html'), 3_000);
    expect((await request(app).get('/pricing').expect(200)).text).toContain('pricing as built');
  });
});

/** A build with its table of the site's paths (web/scripts/prerender.mjs): any other path is a real 404. */
describe('the customer site’s unknown paths: 404 with its not-found page', () => {
  let dist: string;
  const app = express();

  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-routes-'));
    fs.writeFileSync(path.join(dist, 'shell.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><p>landing</p>');
    fs.writeFileSync(
      path.join(dist, 'not-found.html'),
      '<!doctype html><link rel="home" href="MESHWORK_PUBLIC_URL/" /><h1>Page Not Found</h1>',
    );
    fs.writeFileSync(
      path.join(dist, 'site-routes.json'),
      JSON.stringify(['/', '/pricing', '/dashboard', '/checkout/simulated/:sessionId']),
    );
    fs.mkdirSync(path.join(dist, 'pricing'));
    fs.writeFileSync(path.join(dist, 'pricing', 'index.html'), '<!doctype html><p>pricing</p>');
    app.get('/api/v1/ping/', (_request, response) => response.json({ ok: true }));
    serveSites(app, { webDist: dist, adminDist: path.join(dist, 'no-console'), publicUrl: 'https://ai.example.com' });
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  const get = (url: string) => request(app).get(url).set('Accept', 'text/html');

  it('answers a path none of the site’s routes takes with 404 and the not-found page, the public address written in', async () => {
    for (const url of ['/no-such-page', '/no-such-page/anywhere', '/pricing/monthly', '/checkout/simulated', '/dashboard/x']) {
      const answer = await get(url).expect(404);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.text).toBe('<!doctype html><link rel="home" href="https://ai.example.com/" /><h1>Page Not Found</h1>');
    }
  });

  it('answers the site’s own paths as before: any letter case, a trailing slash, a route’s parameter', async () => {
    expect((await get('/').expect(200)).text).toContain('landing');
    for (const url of ['/pricing', '/pricing/', '/pricing/index.html']) expect((await get(url).expect(200)).text).toContain('pricing');
    // The router takes any letter case; no page was prerendered under that spelling, so the app renders it.
    await get('/PRICING').expect(200);
    for (const url of ['/dashboard', '/checkout/simulated/cs_123'])
      expect((await get(url).expect(200)).text).toBe('<!doctype html><div id="root"></div>');
    expect((await request(app).get('/api/v1/ping/').expect(200)).body).toEqual({ ok: true });
  });

  it('answers every path as the site’s when the table cannot be read, as a build without one is served', async () => {
    fs.writeFileSync(path.join(dist, 'site-routes.json'), '{ not json');
    expect((await get('/no-such-page').expect(200)).text).toBe('<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'site-routes.json'), JSON.stringify(['/']));
    await get('/no-such-page').expect(404);
  });
});
