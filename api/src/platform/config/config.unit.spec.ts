import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('runs embedded with nothing set', () => {
    const config = loadConfig({}, '/repo');
    expect(config).toMatchObject({ PORT: 3000, PROJECTIONS_IN_PROCESS: true, dataDir: '/repo/.data', webDist: '/repo/web/dist' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.KAFKA_BROKERS).toBeUndefined();
  });

  it('finds the built-in desktop releases under DATA_DIR, or where DESKTOP_RELEASES_DIR says', () => {
    expect(loadConfig({}, '/repo').desktopReleasesDir).toBe('/repo/.data/releases');
    expect(loadConfig({ DATA_DIR: '/srv/meshwork' }, '/repo').desktopReleasesDir).toBe('/srv/meshwork/releases');
    expect(loadConfig({ DESKTOP_RELEASES_DIR: 'built/desktop' }, '/repo').desktopReleasesDir).toBe('/repo/built/desktop');
  });

  it('names every bad or missing variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', KAFKA_BROKERS: 'localhost', S3_ENDPOINT: 'http://127.0.0.1:9000' }, '/repo');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toMatch(/KAFKA_BROKERS: must be host:port/);
  });

  it('asks for S3 keys when an S3 endpoint is given', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' }, '/repo')).toThrow(/S3_ACCESS_KEY and S3_SECRET_KEY/);
  });
});

describe('entitlement signing keys', () => {
  const seed = Buffer.alloc(32, 7).toString('base64url');
  const x = Buffer.alloc(32, 9).toString('base64url');
  const full = { JWT_SECRET: 'j'.repeat(32), DATA_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') };

  it('reads the signing key and the published keys, with retirement times', () => {
    const config = loadConfig(
      { ENTITLEMENT_SIGNING_KEY: `k2:${seed}`, ENTITLEMENT_PUBLISHED_KEYS: `k3:${x},k1:${x}@2026-03-01T00:00:00Z` },
      '/repo',
    );
    expect(config.ENTITLEMENT_SIGNING_KEY).toEqual({ kid: 'k2', seed: Buffer.alloc(32, 7) });
    expect(config.ENTITLEMENT_PUBLISHED_KEYS).toEqual([
      { kid: 'k3', x, retiredAt: null },
      { kid: 'k1', x, retiredAt: new Date('2026-03-01T00:00:00Z') },
    ]);
  });

  it.each([
    [{ ENTITLEMENT_SIGNING_KEY: 'k2' }, /ENTITLEMENT_SIGNING_KEY: must be <key id>:<base64url/],
    [{ ENTITLEMENT_SIGNING_KEY: `k2:${seed.slice(1)}` }, /ENTITLEMENT_SIGNING_KEY: must be/],
    [{ ENTITLEMENT_SIGNING_KEY: `k 2:${seed}` }, /ENTITLEMENT_SIGNING_KEY: must be/],
    [{ ENTITLEMENT_SIGNING_KEY: `k2:${seed}`, ENTITLEMENT_PUBLISHED_KEYS: `k1:${x}@someday` }, /k1: someday is not a date/],
    [{ ENTITLEMENT_SIGNING_KEY: `k2:${seed}`, ENTITLEMENT_PUBLISHED_KEYS: `k1:${x},k1:${x}` }, /key ids must differ/],
    [{ ENTITLEMENT_SIGNING_KEY: `k2:${seed}`, ENTITLEMENT_PUBLISHED_KEYS: `k2:${x}` }, /must not repeat the signing key/],
    [{ ENTITLEMENT_PUBLISHED_KEYS: `k1:${x}` }, /ENTITLEMENT_SIGNING_KEY: required when ENTITLEMENT_PUBLISHED_KEYS/],
    [full, /ENTITLEMENT_SIGNING_KEY: required when JWT_SECRET is set/],
  ])('refuses %j loudly', (env, message) => {
    expect(() => loadConfig(env, '/repo')).toThrow(message);
  });
});
