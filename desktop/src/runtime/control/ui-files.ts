import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import type { ServerResponse } from 'node:http';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

/**
 * Only this origin's files run in the window: no inline script or style, nothing from elsewhere,
 * no framing (the UI drives the host, so another page must not overlay it).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The built UI (desktop/ui/dist), found from this file in the sources, the build or the release. */
export function defaultUiDirectory(): string {
  for (let directory = __dirname; directory !== dirname(directory); directory = dirname(directory)) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@meshwork/desktop')
      return join(directory, 'ui', 'dist');
  }
  return join(__dirname, 'ui');
}

/**
 * Sends a file of the built UI; a path without an extension gets index.html, whose script routes in the page.
 * Vite names assets by their content, so those are cached for good and index.html never.
 */
export async function sendUiFile(root: string, pathname: string, response: ServerResponse): Promise<void> {
  const asked = join(root, normalize(safelyDecoded(pathname)));
  const file = extname(asked) === '' ? join(root, 'index.html') : asked;
  if (!file.startsWith(root + sep) || (file !== join(root, 'index.html') && !existsSync(file))) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    return void response.end('Not found.');
  }
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch {
    response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
    return void response.end(`The host's window was not built (no ${file}). Run npm run build -w desktop.`);
  }
  response.writeHead(200, {
    'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'Cache-Control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-store',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  response.end(content);
}

/** A path that does not decode names no file: it is looked up as it is, and not found. */
function safelyDecoded(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
