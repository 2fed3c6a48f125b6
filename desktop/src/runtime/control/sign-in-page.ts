import type { ServerResponse } from 'node:http';

/** Nothing runs on this page: it only says how to get in. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const page = (notice: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Open Meshwork</title>
<link rel="icon" href="/favicon.ico">
<style>
  body { font-family: system-ui, sans-serif; background: #f8fafc; color: #0f172a; margin: 0; display: grid; place-items: center; min-height: 100vh; }
  main { max-width: 34rem; margin: 1.5rem; padding: 2rem; background: #fff; border: 1px solid #e2e8f0; border-radius: 12px; }
  h1 { font-size: 1.35rem; margin: 0 0 1rem; }
  p { line-height: 1.5; }
  .notice { background: #fef3c7; border-radius: 8px; padding: 0.75rem 1rem; }
  code { background: #f1f5f9; padding: 0.1rem 0.3rem; border-radius: 4px; }
  small { color: #475569; }
</style>
</head>
<body>
<main>
<h1>Meshwork is running on this computer</h1>
${notice}
<p>To open its window, start Meshwork again: from the applications menu, from the Start menu on Windows, or by running <code>meshwork-host</code>. The running Meshwork then opens this window for you, signed in.</p>
<p><small>The window opens only this way, so that other programs and web pages on this computer cannot use it.</small></p>
</main>
</body>
</html>
`;

const EXPIRED = '<p class="notice">That link has been used already or is more than two minutes old: each link opens the window once.</p>';

/** The page a browser gets at the window's address without a session (401: it is not the window). */
export function sendSignInPage(response: ServerResponse, codeRefused: boolean): void {
  response.writeHead(401, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  response.end(page(codeRefused ? EXPIRED : ''));
}
