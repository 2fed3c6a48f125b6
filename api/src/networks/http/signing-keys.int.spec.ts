import { createPrivateKey, createPublicKey } from 'node:crypto';
import request from 'supertest';
import { EntitlementKeySet, SignedKeySet, verifyEntitlementToken, verifyKeySetToken } from '@meshwork/contracts';
import { newSigningKey } from '../../platform/config/secrets';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { buildEntitlementDocument } from '../domain/entitlement-document';
import { EntitlementSigner } from '../infrastructure/entitlement-signer';

const DAY_MS = 86_400_000;
const publicOf = (spec: string) => {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(spec.split(':')[1]!, 'base64url')]);
  return createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ format: 'jwk' }).x!;
};

/** Issue 12, section 3: GET /devices/keys/ publishes the signing key, the next one and the recently retired. */
describe('GET /api/v1/devices/keys/', () => {
  const [active, next, recent, old] = [newSigningKey(), newSigningKey(), newSigningKey(), newSigningKey()];
  const kid = (spec: string) => spec.split(':')[0]!;
  let subject: TestApp;

  beforeAll(async () => {
    const published = [
      `${kid(next)}:${publicOf(next)}`,
      `${kid(recent)}:${publicOf(recent)}@${new Date(Date.now() - DAY_MS).toISOString()}`,
      `${kid(old)}:${publicOf(old)}@${new Date(Date.now() - 15 * DAY_MS).toISOString()}`,
    ];
    subject = await startTestApp({ ENTITLEMENT_SIGNING_KEY: active, ENTITLEMENT_PUBLISHED_KEYS: published.join(',') });
  });
  afterAll(() => subject.close());

  it('answers the published keys as a JWK set, without sign-in, cacheable for five minutes', async () => {
    const response = await request(subject.app.getHttpServer()).get('/api/v1/devices/keys/').expect(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const keySet = EntitlementKeySet.parse(response.body);
    expect(keySet.keys.map((k) => k.kid)).toEqual([kid(active), kid(next), kid(recent)]); // the old one's documents have all expired
    expect(keySet.keys[0]).toEqual({ kty: 'OKP', crv: 'Ed25519', kid: kid(active), x: publicOf(active), use: 'sig', alg: 'EdDSA' });
  });

  it('publishes the key the api signs with: its documents verify against the answered set', async () => {
    const keySet = (await request(subject.app.getHttpServer()).get('/api/v1/devices/keys/').expect(200)).body;
    const now = new Date();
    const token = subject.app.get(EntitlementSigner).sign(
      buildEntitlementDocument({
        issuer: 'http://127.0.0.1:3000',
        deviceId: '7a0c9d1e-2b3f-4c5d-8e6f-0a1b2c3d4e5f',
        userId: '1b2c3d4e-5f60-4718-89ab-cdef01234567',
        plan: { slug: 'free', name: 'Free', maxNetworks: 1, maxClientsPerNetwork: 2, downloadAccess: false, expiresAt: null },
        models: [],
        networks: [],
        now,
        seq: 1,
      }),
    );
    expect(await verifyEntitlementToken(token, keySet, now)).toMatchObject({ status: 'valid', kid: kid(active) });
  });

  it('signs the key set with the active key, so a host that pinned the keys at sign-in can follow a rotation', async () => {
    const pinned = EntitlementKeySet.parse((await request(subject.app.getHttpServer()).get('/api/v1/devices/keys/').expect(200)).body);
    const issuer = 'http://127.0.0.1:3000';
    // The rotation: the next key signs, the old active one is retired now.
    const rotated = await startTestApp({
      ENTITLEMENT_SIGNING_KEY: next,
      ENTITLEMENT_PUBLISHED_KEYS: `${kid(active)}:${publicOf(active)}@${new Date().toISOString()}`,
      PUBLIC_URL: issuer,
    });
    try {
      const response = await request(rotated.app.getHttpServer()).get('/api/v1/devices/keys/signed/').expect(200);
      const { token } = SignedKeySet.parse(response.body);
      const verdict = await verifyKeySetToken(token, pinned, new Date(), { issuer });
      expect(verdict).toMatchObject({ status: 'valid', kid: kid(next) });
      if (verdict.status !== 'valid') return;
      expect(verdict.keySet.keys.map((k) => k.kid)).toEqual([kid(next), kid(active)]);
      // A set signed by a key the host never pinned teaches it nothing, and neither does another issuer's.
      const stranger = { keys: pinned.keys.filter((k) => k.kid !== kid(next)) };
      expect(await verifyKeySetToken(token, stranger, new Date(), { issuer })).toMatchObject({ status: 'rejected', reason: 'unknown_key' });
      expect(await verifyKeySetToken(token, pinned, new Date(), { issuer: 'https://elsewhere.example' })).toMatchObject({
        reason: 'wrong_issuer',
      });
      expect(await verifyKeySetToken(token, pinned, new Date(), { issuer, minIat: verdict.keySet.iat + 1 })).toMatchObject({
        reason: 'stale',
      });
    } finally {
      await rotated.close();
    }
  });
});
