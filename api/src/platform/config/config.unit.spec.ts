import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('runs embedded with nothing set', () => {
    const config = loadConfig({}, '/repo');
    expect(config).toMatchObject({ PORT: 3000, PROJECTIONS_IN_PROCESS: true, dataDir: '/repo/.data', webDist: '/repo/web/dist' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.KAFKA_BROKERS).toBeUndefined();
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
