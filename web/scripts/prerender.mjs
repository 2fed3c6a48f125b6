#!/usr/bin/env node
// `node web/scripts/prerender.mjs [--dist <folder>] [--api <origin>]`: the last step of the
// customer site's build. Writes every public page (PUBLIC_PAGES) as HTML that holds the page
// before any script runs, with its title, description and social-card tags; the browser
// hydrates it (src/app/start.tsx). Rendered by the build's server bundle (src/entry-server.tsx).
//
// Vite's index.html becomes shell.html: what the api answers for paths that are not
// prerendered (the signed-in app). '/' is written to index.html, any other page to
// <page>/index.html (api/src/platform/http/static-sites.ts serves them). Into the build itself
// also go site-routes.json, the site's paths, and not-found.html, its not-found page: the api
// answers any other path with that page and a 404.
//
// With --api (or MESHWORK_PRERENDER_API), the pages that show api data get it from that api
// (the plans on /pricing); without, they are prerendered as loading and fill in in the browser.
// `npm start` runs this again against its own api once it answers, with --out DATA_DIR/site:
// pages made with an installation's data belong to its data, and the build stays the same.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const web = path.resolve(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: { dist: { type: 'string', default: path.join(web, 'dist') }, out: { type: 'string' }, api: { type: 'string' } },
});
const dist = path.resolve(options.dist);
/** Where the pages go: the build itself unless told. */
const out = path.resolve(options.out ?? dist);
const apiOrigin = options.api ?? process.env.MESHWORK_PRERENDER_API;

const server = await import(pathToFileURL(path.join(web, 'dist-server', 'entry-server.js')).href);

const shell = path.join(dist, 'shell.html');
if (!fs.existsSync(shell)) fs.renameSync(path.join(dist, 'index.html'), shell);
const template = fs.readFileSync(shell, 'utf8');
const ROOT = '<div id="root"></div>';
if (!template.includes(ROOT)) throw new Error(`${shell} has no empty ${ROOT}`);

const answers = apiOrigin ? await readApi(apiOrigin) : {};
for (const page of server.PUBLIC_PAGES) {
  const { html, state } = await server.renderPage(page, answers);
  writeAtomically(path.join(out, page === '/' ? '' : page, 'index.html'), pageHtml(page, html, state));
}
// The build's own, with no installation's data in them: written with the build, never with --out.
if (out === dist) {
  writeAtomically(path.join(dist, 'site-routes.json'), `${JSON.stringify(server.SITE_PATHS, null, 2)}\n`);
  const { html } = await server.renderPage(server.NOT_FOUND_SAMPLE_PATH);
  writeAtomically(path.join(dist, 'not-found.html'), notFoundHtml(html));
}
console.log(
  `prerendered ${server.PUBLIC_PAGES.length} pages in ${out}${apiOrigin ? ` with the api at ${apiOrigin}` : ' (no api: plans fill in on load)'}`,
);

/**
 * The answers pages may be prerendered with, from a running api. A new installation seeds its
 * plans as it starts and its read model lists them a moment later: an empty list is waited out
 * (bounded), and if it stays empty /pricing is prerendered as loading rather than planless.
 */
async function readApi(origin) {
  const url = new URL('/api/v1/subscriptions/plans/', origin);
  for (const deadline = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 250))) {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
    const plans = await response.json();
    if (!Array.isArray(plans) || plans.length > 0) return { plans };
    if (Date.now() > deadline) return {};
  }
}

function pageHtml(page, html, state) {
  const { title, description } = server.PAGE_META[page];
  const url = `${server.PUBLIC_URL_PLACEHOLDER}${page === '/' ? '/' : page}`;
  const head = [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(description)}" />`,
    `<link rel="canonical" href="${url}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(server.SITE_NAME)}" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(description)}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta property="og:image" content="${server.PUBLIC_URL_PLACEHOLDER}/social-card.png" />`,
    `<meta property="og:image:width" content="1200" />`,
    `<meta property="og:image:height" content="630" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
  ].join('\n    ');
  const withHead = template.replace(/\n\s*<title>[^<]*<\/title>/, () => '').replace(/<meta name="description"[^>]*>/, () => head);
  if (withHead === template) throw new Error(`${shell} lost its <title> or description: update prerender.mjs`);
  // JSON in a non-script block; `<` escaped so no answer can close the element.
  const data = state
    ? `\n    <script type="application/json" id="prerendered-state">${JSON.stringify(state).replaceAll('<', '\\u003c')}</script>`
    : '';
  return withHead.replace(ROOT, () => `<div id="root">${html}</div>${data}`);
}

/** The not-found page: its own title, and kept out of search results. */
function notFoundHtml(html) {
  const head = [`<title>Page Not Found · ${escapeHtml(server.SITE_NAME)}</title>`, '<meta name="robots" content="noindex" />'].join(
    '\n    ',
  );
  const withHead = template.replace(/\n\s*<title>[^<]*<\/title>/, () => '').replace(/<meta name="description"[^>]*>/, () => head);
  if (withHead === template) throw new Error(`${shell} lost its <title> or description: update prerender.mjs`);
  return withHead.replace(ROOT, () => `<div id="root">${html}</div>`);
}

function escapeHtml(text) {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);
}

/** The api may be serving this folder: it must never read half a page. */
function writeAtomically(file, content) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content);
  fs.renameSync(temporary, file);
}
