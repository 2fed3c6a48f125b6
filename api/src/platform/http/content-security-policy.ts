import type { AppConfig } from '../config/config';

/** A policy as directives and their sources, serialised into one header value. */
export type Policy = Record<string, string[]>;

/** Which page an answer belongs to decides its policy. */
export type PageKind = 'site' | 'console' | 'docs' | 'api';

/**
 * Where the console may send upload parts and the site may reach storage: the origins of the
 * presigned URLs. Embedded storage signs URLs on PUBLIC_URL (usually 'self', but not when the
 * browser came in by another name). S3 URLs are path-style on the endpoint (MinIO, what
 * minio-js uses for every host but Amazon's), or on `<bucket>.<host>` for Amazon S3.
 */
export function storageOrigins(config: Pick<AppConfig, 'S3_ENDPOINT' | 'S3_BUCKET' | 'publicUrl'>): string[] {
  if (!config.S3_ENDPOINT) return [new URL(config.publicUrl).origin];
  const endpoint = new URL(config.S3_ENDPOINT);
  const origins = [endpoint.origin];
  if (/(^|\.)amazonaws\.com(\.cn)?$/.test(endpoint.hostname)) origins.push(`${endpoint.protocol}//${config.S3_BUCKET}.${endpoint.host}`);
  return origins;
}

/**
 * What every page shares: nothing unless named, scripts only from our own files (Vite builds
 * no inline script), no plugins, no <base>, forms post only to us, and no other site may
 * frame us (clickjacking).
 */
const PAGE: Policy = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'"],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * The inline styles of the OpenAPI page, by hash: @nestjs/swagger's template has two <style>
 * blocks and the icon sprite's style attribute; Swagger UI draws its logo as an SVG with a
 * <style> inside. An upgrade that changes one shows up as a violation in the docs browser
 * test (web/e2e/security-policy.e2e.spec.ts).
 */
const SWAGGER_INLINE_STYLES = [
  "'sha256-/jDKvbQ8cdux+c5epDIqkjHbXDaIY8RucT1PmAe8FG4='",
  "'sha256-eaPyLWVdqMc60xuz5bTp2yBRgVpQSoUggte1+40ONPU='",
  "'sha256-ezdv1bOGcoOD7FKudKN0Y2Mb763O6qVtM8LT2mtanIU='",
  "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
];

/** The policies, built once from the settings; the console's takes each answer's nonce. */
export function contentSecurityPolicies(config: Pick<AppConfig, 'S3_ENDPOINT' | 'S3_BUCKET' | 'publicUrl'>) {
  const connect = { 'connect-src': ["'self'", ...storageOrigins(config)] };
  const site = serialize({ ...PAGE, ...connect });
  const docs = serialize({
    ...PAGE,
    // 'unsafe-hashes' lets the one hashed style attribute through, nothing else inline.
    'style-src': ["'self'", "'unsafe-hashes'", ...SWAGGER_INLINE_STYLES],
    // swagger-ui.css draws its icons from data: images.
    'img-src': ["'self'", 'data:'],
  });
  // JSON is never rendered as a page; if it ever is (opened in a tab, sniffed), nothing runs.
  const api = serialize({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
  return {
    site,
    docs,
    api,
    console: (nonce: string) =>
      serialize({
        ...PAGE,
        ...connect,
        // hash-wasm compiles WebAssembly to hash the files before upload; no JS eval.
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        // emotion (MUI, react-admin) writes <style> elements at run time, each with this nonce.
        'style-src': ["'self'", `'nonce-${nonce}'`],
      }),
  };
}

function serialize(policy: Policy): string {
  return Object.entries(policy)
    .map(([directive, sources]) => [directive, ...sources].join(' '))
    .join('; ');
}
