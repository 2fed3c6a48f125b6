import { startApiProcess } from '@meshwork/testkit/api/api-process.cjs';
import { required } from '@meshwork/testkit/infra';

/** What every answer must carry, whatever it is. */
const COMMON = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const DENIED_FEATURES = ['camera', 'microphone', 'geolocation', 'usb', 'payment', 'serial', 'hid', 'display-capture'];

/**
 * The built api as `npm start` runs it (site and console served too), against real MinIO:
 * the browser-side defences (ASVS V3) read from its answers, pages, JSON, errors and 404s.
 */
describe('security headers on the answers of the built api', () => {
  const storage = new URL(required('S3_ENDPOINT')).origin;
  let api: Awaited<ReturnType<typeof startApiProcess>>;
  let origin = '';

  beforeAll(async () => {
    api = await startApiProcess('test_security_headers', required('DATABASE_URL'), {
      S3_ENDPOINT: required('S3_ENDPOINT'),
      S3_ACCESS_KEY: required('S3_ACCESS_KEY'),
      S3_SECRET_KEY: required('S3_SECRET_KEY'),
    });
    origin = new URL(api.base).origin;
  }, 120_000);
  afterAll(() => api?.stop(), 60_000);

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${origin}${path}`, { headers: { Accept: 'text/html', ...headers } });

  function expectCommonHeaders(response: Response): void {
    for (const [name, value] of Object.entries(COMMON)) expect([name, response.headers.get(name)]).toEqual([name, value]);
    const permissions = response.headers.get('permissions-policy') ?? '';
    for (const feature of DENIED_FEATURES) expect(permissions).toContain(`${feature}=()`);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  }

  /** A policy as a map from directive to its sources, so tests read one directive at a time. */
  function policyOf(response: Response): Record<string, string> {
    const header = response.headers.get('content-security-policy');
    expect(header).toBeTruthy();
    return Object.fromEntries(
      header!.split(';').map((directive) => {
        const [name, ...sources] = directive.trim().split(/\s+/);
        return [name, sources.join(' ')];
      }),
    );
  }

  /** What the site and the console share: nothing inline, nothing framing them, nothing but us and storage to talk to. */
  function expectPagePolicy(policy: Record<string, string>): void {
    expect(policy).toMatchObject({
      'default-src': "'none'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
      'img-src': "'self'",
      'connect-src': `'self' ${storage}`,
    });
  }

  it.each(['/', '/pricing', '/dashboard'])(
    'gives the site page %s its strict policy: scripts and styles only from our files',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<div id="root">');
      expectCommonHeaders(response);
      const policy = policyOf(response);
      expectPagePolicy(policy);
      expect(policy).toMatchObject({ 'script-src': "'self'", 'style-src': "'self'" });
    },
  );

  it('gives the console a fresh style nonce per answer, the same one its page hands to emotion', async () => {
    const nonces: string[] = [];
    for (const path of ['/admin/', '/admin/users', '/admin/index.html']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expectCommonHeaders(response);
      const policy = policyOf(response);
      expectPagePolicy(policy);
      expect(policy['script-src']).toBe("'self' 'wasm-unsafe-eval'");
      const nonce = /^'self' 'nonce-([A-Za-z0-9+/]{22}==)'$/.exec(policy['style-src']!)?.[1];
      expect(nonce).toBeDefined();
      const html = await response.text();
      expect(html).toContain(`<meta property="csp-nonce" nonce="${nonce}"`);
      expect(html).not.toContain('MESHWORK_CSP_NONCE');
      nonces.push(nonce!);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it.each([
    ['/api/v1/health/', 200],
    ['/api/v1/no-such-route/', 404],
    ['/api/v1/profile/', 401],
    ['/assets/no-such-file.js', 404],
  ])('gives %s (status %i) the headers too: errors and 404s are answers like any other', async (path, status) => {
    const response = await get(path, { Accept: 'application/json' });
    expect(response.status).toBe(status);
    expectCommonHeaders(response);
    if (path.startsWith('/api/'))
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    else expectPagePolicy(policyOf(response));
  });

  it('gives the OpenAPI page its own policy: our scripts, and only its template’s inline styles by hash', async () => {
    for (const path of ['/api/v1/docs', '/api/v1/docs/']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('swagger-ui');
      expectCommonHeaders(response);
      const policy = policyOf(response);
      expect(policy).toMatchObject({
        'default-src': "'none'",
        'script-src': "'self'",
        'img-src': "'self' data:",
        'connect-src': "'self'",
        'frame-ancestors': "'none'",
      });
      expect(policy['style-src']).toMatch(/^'self' 'unsafe-hashes'( 'sha256-[A-Za-z0-9+/]{43}=')+$/);
    }
  });

  it('sends HSTS only to a request that came over TLS, here through a trusted loopback proxy', async () => {
    for (const path of ['/', '/api/v1/health/']) {
      expect((await get(path)).headers.get('strict-transport-security')).toBeNull();
      const overTls = await get(path, { 'X-Forwarded-Proto': 'https' });
      expect(overTls.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    }
  });
});
