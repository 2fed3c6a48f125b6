import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './config';
import { loadSecrets, newSigningKey } from './secrets';

describe('secrets', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-secrets-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const secretsFile = () => path.join(dir, 'secrets.json');

  it('generates an entitlement signing key on first start, keeps it (owner-only) and reads the same one after a restart', () => {
    const first = loadSecrets(loadConfig({ DATA_DIR: dir }, '/'));
    expect(first.entitlementKeys.signing.kid).toMatch(/^mw-\d{8}-[0-9a-f]{6}$/);
    expect(first.entitlementKeys.signing.seed).toHaveLength(32);
    expect(fs.statSync(secretsFile()).mode & 0o777).toBe(0o600);
    const again = loadSecrets(loadConfig({ DATA_DIR: dir }, '/'));
    expect(again.entitlementKeys).toEqual(first.entitlementKeys);
    expect(again.jwtSecret).toEqual(first.jwtSecret);
  });

  it('adds the signing key to a secrets file written before it existed, keeping the other secrets', () => {
    fs.writeFileSync(
      secretsFile(),
      JSON.stringify({ jwtSecret: 'old-jwt-secret', dataEncryptionKey: Buffer.alloc(32, 1).toString('base64') }),
    );
    const secrets = loadSecrets(loadConfig({ DATA_DIR: dir }, '/'));
    expect(secrets.jwtSecret.toString()).toBe('old-jwt-secret');
    const stored = JSON.parse(fs.readFileSync(secretsFile(), 'utf8'));
    expect(stored).toMatchObject({ jwtSecret: 'old-jwt-secret', entitlementSigningKey: expect.stringMatching(/^mw-/) });
  });

  it('takes the keys from the environment in full mode, and refuses a malformed stored key by name', () => {
    const key = newSigningKey();
    const env = {
      DATA_DIR: dir,
      JWT_SECRET: 'j'.repeat(32),
      DATA_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
      ENTITLEMENT_SIGNING_KEY: key,
    };
    expect(loadSecrets(loadConfig(env, '/')).entitlementKeys.signing.kid).toBe(key.split(':')[0]);
    expect(fs.existsSync(secretsFile())).toBe(false);

    fs.writeFileSync(secretsFile(), JSON.stringify({ jwtSecret: 'x', dataEncryptionKey: 'y', entitlementSigningKey: 'k1:short' }));
    expect(() => loadSecrets(loadConfig({ DATA_DIR: dir }, '/'))).toThrow(/secrets.json entitlementSigningKey: must be/);
  });
});
