#!/usr/bin/env node
// `node admin/scripts/first-load.mjs [dist]`: the console's first load, in gzipped KB: every
// script the browser fetches for /admin/ before the login check and the dashboard can run,
// that is the entry script of dist/index.html and all it imports statically (Vite lists them
// as modulepreload links; their own `import … from "./x.js"` are followed too, in case one
// is missing). Screens loaded by dynamic import() are not counted: they come when opened.
// The budget is 300 KB (issue: staff console first load); `npm run bench:site` reads it via
// firstLoad().
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

export const FIRST_LOAD_BUDGET_KB = 300;

/** Static imports of a built chunk: `import{…}from"./a.js"`, `import"./a.js"`, `export{…}from"./a.js"` (not `import("./a.js")`). */
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g;

/** Scripts index.html loads up front: module entry scripts and modulepreload links, as paths under the site's base. */
function scriptsOfIndex(html) {
  const tags = html.match(/<(?:script|link)\b[^>]*>/g) ?? [];
  return tags
    .filter((tag) => /type=["']module["']/.test(tag) || /rel=["']modulepreload["']/.test(tag))
    .map((tag) => /\b(?:src|href)=["']([^"']+)["']/.exec(tag)?.[1])
    .filter((url) => url !== undefined && url.endsWith('.js'));
}

/**
 * The first load of the Vite build in `dist`: each script with its raw and gzipped size (gzip
 * level 9, as infra/scripts/precompress.mjs writes the .gz the server sends), and the total KB.
 */
export function firstLoad(dist) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  // index.html names scripts by URL under the base (/admin/assets/x.js): find each file by its assets/ path.
  const fileOf = (url) => path.join(dist, url.slice(url.indexOf('assets/')));
  const pending = scriptsOfIndex(html).map(fileOf);
  const seen = new Set();
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = fs.readFileSync(file, 'utf8');
    for (const [, specifier] of code.matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith('.')) pending.push(path.resolve(path.dirname(file), specifier));
    }
  }
  const scripts = [...seen].map((file) => {
    const body = fs.readFileSync(file);
    return { file: path.relative(dist, file), bytes: body.length, gzipBytes: zlib.gzipSync(body, { level: 9 }).length };
  });
  scripts.sort((a, b) => b.gzipBytes - a.gzipBytes);
  const gzipBytes = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
  return { scripts, gzipBytes, gzipKB: gzipBytes / 1000 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'));
  const { scripts, gzipKB } = firstLoad(dist);
  for (const { file, bytes, gzipBytes } of scripts) {
    console.log(`${(gzipBytes / 1000).toFixed(1).padStart(7)} KB gz  ${(bytes / 1000).toFixed(1).padStart(7)} KB  ${file}`);
  }
  console.log(`first load: ${gzipKB.toFixed(1)} KB gzipped JavaScript (budget ${FIRST_LOAD_BUDGET_KB} KB)`);
}
