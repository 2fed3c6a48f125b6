import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppConfig } from '../config/config';
import { contentSecurityPolicies, type PageKind } from './content-security-policy';

/**
 * The placeholder the console's build leaves for the nonce (admin/vite.config.ts,
 * `html.cspNonce`); static-sites.ts swaps in the answer's own.
 */
export const CSP_NONCE_PLACEHOLDER = 'MESHWORK_CSP_NONCE';

/** Headers every answer carries, page or JSON, success or error. */
const COMMON_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  // For browsers that predate frame-ancestors.
  'X-Frame-Options': 'DENY',
  // Other sites learn our origin, never a path or query (reset links carry tokens in theirs).
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // Powerful features the product never uses, denied to us and to anything we might embed.
  'Permissions-Policy': [
    'accelerometer',
    'camera',
    'display-capture',
    'geolocation',
    'gyroscope',
    'hid',
    'magnetometer',
    'microphone',
    'midi',
    'payment',
    'serial',
    'usb',
    'xr-spatial-tracking',
  ]
    .map((feature) => `${feature}=()`)
    .join(', '),
  // Pages we open (Stripe's checkout, links) get no handle on our window, nor we on theirs.
  'Cross-Origin-Opener-Policy': 'same-origin',
  // No other site may embed our answers; presigned downloads come from storage, not us.
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Sets the browser-side defences (ASVS V3) on every answer, before any route or static file
 * runs: the common headers above, HSTS when the request came over TLS (directly or through
 * a trusted proxy, per Express's `trust proxy`), and the Content-Security-Policy of the page
 * the path belongs to. Console pages get a fresh nonce per answer in `response.locals`.
 */
export function securityHeaders(config: Pick<AppConfig, 'S3_ENDPOINT' | 'S3_BUCKET' | 'publicUrl'>, docsPath: string): RequestHandler {
  const policies = contentSecurityPolicies(config);
  const docs = docsPath.toLowerCase();
  return (request: Request, response: Response, next: NextFunction) => {
    for (const [name, value] of Object.entries(COMMON_HEADERS)) response.setHeader(name, value);
    if (request.secure) response.setHeader('Strict-Transport-Security', HSTS);
    const kind = pageKind(request.path, docs);
    if (kind === 'console') {
      const nonce = randomBytes(16).toString('base64');
      response.locals.cspNonce = nonce;
      response.setHeader('Content-Security-Policy', policies.console(nonce));
    } else {
      response.setHeader('Content-Security-Policy', policies[kind]);
    }
    next();
  };
}

/** The nonce securityHeaders chose for this console answer. */
export function cspNonce(response: Response): string {
  const nonce: unknown = response.locals.cspNonce;
  if (typeof nonce !== 'string') throw new Error('no CSP nonce: securityHeaders must run before the console is served');
  return nonce;
}

/** Express matches routes case-insensitively, so the path is classified the same way. */
function pageKind(requestPath: string, docs: string): PageKind {
  const path = requestPath.toLowerCase();
  if (path === docs || path.startsWith(`${docs}/`)) return 'docs';
  if (path.startsWith('/api/')) return 'api';
  if (path === '/admin' || path.startsWith('/admin/')) return 'console';
  return 'site';
}
