import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SIGNING_KEY_RETENTION_SECONDS, verifyEntitlementToken } from '@meshwork/contracts';
import { loadConfig, signingKeySpec, type PublishedKeySpec } from '../../platform/config/config';
import { loadSecrets, newSigningKey, publicKeyOf, rotateStoredEntitlementKey } from '../../platform/config/secrets';
import { buildEntitlementDocument } from '../domain/entitlement-document';
import { EntitlementSigner } from './entitlement-signer';

const DAY_MS = 86_400_000;
const T0 = new Date('2026-03-01T00:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY_MS);

function key() {
  const signing = signingKeySpec.parse(newSigningKey(T0));
  return { signing, x: publicKeyOf(signing.seed) };
}
const signerOf = (signing: ReturnType<typeof key>['signing'], published: PublishedKeySpec[] = []) =>
  new EntitlementSigner({ entitlementKeys: { signing, published } });

const documentAt = (now: Date) =>
  buildEntitlementDocument({
    issuer: 'https://meshwork.example',
    deviceId: '7a0c9d1e-2b3f-4c5d-8e6f-0a1b2c3d4e5f',
    userId: '1b2c3d4e-5f60-4718-89ab-cdef01234567',
    plan: { slug: 'free', name: 'Free', maxNetworks: 1, maxClientsPerNetwork: 2, downloadAccess: false, expiresAt: null },
    models: [],
    networks: [],
    now,
    seq: 1,
  });

describe('signing key rotation', () => {
  const old = key();
  const next = key();

  it('publishes the next key before it signs, so a host that fetched the set then accepts its first document', async () => {
    const before = signerOf(old.signing, [{ kid: next.signing.kid, x: next.x, retiredAt: null }]);
    const cachedSet = before.keySet(T0);
    expect(cachedSet.keys.map((k) => k.kid)).toEqual([old.signing.kid, next.signing.kid]);
    expect((await verifyEntitlementToken(before.sign(documentAt(T0)), cachedSet, T0)).status).toBe('valid');

    const after = signerOf(next.signing, [{ kid: old.signing.kid, x: old.x, retiredAt: at(1) }]);
    expect(after.kid).toBe(next.signing.kid);
    expect((await verifyEntitlementToken(after.sign(documentAt(at(1))), cachedSet, at(1))).status).toBe('valid');
  });

  it('keeps a retired key published until every document it signed has expired, grace included, and not after', async () => {
    const retiredAt = at(1);
    const lastByOld = signerOf(old.signing).sign(documentAt(retiredAt));
    const rotated = signerOf(next.signing, [{ kid: old.signing.kid, x: old.x, retiredAt }]);
    const verdictAt = async (when: Date) => {
      const verdict = await verifyEntitlementToken(lastByOld, rotated.keySet(when), when);
      return verdict.status === 'rejected' ? verdict.reason : verdict.status;
    };

    expect(await verdictAt(at(2))).toBe('valid'); // the overlap
    expect(await verdictAt(at(1 + 10))).toBe('valid-in-grace');
    const lastMoment = new Date(retiredAt.getTime() + SIGNING_KEY_RETENTION_SECONDS * 1000);
    expect(await verdictAt(lastMoment)).toBe('valid-in-grace');
    expect(rotated.keySet(new Date(lastMoment.getTime() + 1000)).keys.map((k) => k.kid)).toEqual([next.signing.kid]);
    expect(await verdictAt(new Date(lastMoment.getTime() + 1000))).toBe('unknown_key');
  });

  it('signs with the key it publishes: its x is the signing key’s own public key', async () => {
    const signer = signerOf(old.signing);
    expect(signer.keySet(T0).keys).toEqual([{ kty: 'OKP', crv: 'Ed25519', kid: old.signing.kid, x: old.x, use: 'sig', alg: 'EdDSA' }]);
    expect(
      (await verifyEntitlementToken(signer.sign(documentAt(T0)), { keys: [{ ...signer.keySet(T0).keys[0]!, x: next.x }] }, T0)).status,
    ).toBe('rejected');
  });

  it('refuses to sign a document the hosts would refuse', () => {
    expect(() => signerOf(old.signing).sign({ ...documentAt(T0), sub: 'not-a-uuid' })).toThrow();
  });

  it('rotates the embedded key in secrets.json: the new key signs after a restart, the old one verifies until its documents expire', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-rotate-'));
    try {
      const restart = () => new EntitlementSigner(loadSecrets(loadConfig({ DATA_DIR: dataDir }, '/')));
      const first = restart();
      const signedBefore = first.sign(documentAt(T0));

      const newKid = rotateStoredEntitlementKey(dataDir, at(1));
      const second = restart();
      expect(second.kid).toBe(newKid);
      expect(second.kid).not.toBe(first.kid);
      expect(second.keySet(at(2)).keys.map((k) => k.kid)).toEqual([newKid, first.kid]);
      expect((await verifyEntitlementToken(signedBefore, second.keySet(at(2)), at(2))).status).toBe('valid');
      expect((await verifyEntitlementToken(second.sign(documentAt(at(2))), second.keySet(at(2)), at(2))).status).toBe('valid');

      // A later rotation drops from the file the key whose documents have all expired.
      rotateStoredEntitlementKey(dataDir, at(20));
      expect(
        restart()
          .keySet(at(20))
          .keys.map((k) => k.kid),
      ).toEqual([expect.not.stringMatching(newKid), newKid]);
      const stored = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as { entitlementPublishedKeys: string };
      expect(stored.entitlementPublishedKeys).not.toContain(first.kid);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
