import { createHmac, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { base64urlDecode, base64urlEncode } from './base64url';
import { ENTITLEMENT_TYPE, type EntitlementDocument, type EntitlementKeySet } from './entitlement-document.contract';
import { verifyEntitlementToken } from './verify-entitlement';

const NOW = new Date('2026-03-01T12:00:00Z');
const nowS = NOW.getTime() / 1000;
const DAY = 86_400;

function keyPair(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  return { kid, privateKey, x, jwk: { kty: 'OKP' as const, crv: 'Ed25519' as const, kid, x, use: 'sig' as const, alg: 'EdDSA' as const } };
}

const current = keyPair('k2026a');
const keySet: EntitlementKeySet = { keys: [current.jwk] };

const document = (overrides: Partial<EntitlementDocument> = {}): EntitlementDocument => ({
  v: 1,
  iss: 'https://meshwork.example',
  sub: '7a0c9d1e-2b3f-4c5d-8e6f-0a1b2c3d4e5f',
  user_id: '1b2c3d4e-5f60-4718-89ab-cdef01234567',
  plan: {
    slug: 'pro',
    name: 'Pro',
    max_networks: 5,
    max_clients_per_network: 10,
    download_access: true,
    expires_at: '2026-03-31T00:00:00.000Z',
  },
  models: [{ name: 'llama-mini', version: '1.0.0', manifest_sha256: 'ab'.repeat(32) }],
  networks: [
    { id: '0f1e2d3c-4b5a-4978-8877-665544332211', name: 'Office', role: 'host', model: 'llama-mini', max_clients: 10, status: 'active' },
  ],
  iat: nowS - 60,
  exp: nowS - 60 + 7 * DAY,
  grace_until: nowS - 60 + 14 * DAY,
  seq: 42,
  ...overrides,
});

const segment = (value: unknown) => base64urlEncode(Buffer.from(JSON.stringify(value)));

/** A compact JWS as the api makes it; header and payload may be anything, to forge with. */
function token(
  payload: unknown = document(),
  header: unknown = { alg: 'EdDSA', kid: current.kid, typ: ENTITLEMENT_TYPE },
  key: KeyObject = current.privateKey,
) {
  const input = `${segment(header)}.${segment(payload)}`;
  return `${input}.${base64urlEncode(sign(null, Buffer.from(input), key))}`;
}

const verify = (t: unknown, options = {}, at = NOW, keys: unknown = keySet) => verifyEntitlementToken(t, keys, at, options);
const reason = async (t: unknown, options = {}, at = NOW, keys: unknown = keySet) => {
  const verdict = await verify(t, options, at, keys);
  return verdict.status === 'rejected' ? verdict.reason : verdict.status;
};

describe('the entitlement verifier', () => {
  it('accepts a good document and gives it back with its key id', async () => {
    expect(await verify(token())).toEqual({ status: 'valid', document: document(), kid: current.kid });
  });

  describe('tampering', () => {
    it('refuses a payload with one byte changed', async () => {
      const [h, p, s] = token().split('.') as [string, string, string];
      const bytes = base64urlDecode(p)!;
      const at = Buffer.from(bytes).indexOf('"max_networks":5') + '"max_networks":'.length;
      bytes[at] = '9'.charCodeAt(0); // 5 networks become 9
      expect(await reason(`${h}.${base64urlEncode(bytes)}.${s}`)).toBe('bad_signature');
    });

    it('refuses a payload swapped for another validly shaped one', async () => {
      const [h, , s] = token().split('.');
      expect(await reason(`${h}.${segment(document({ plan: { ...document().plan, max_networks: null } }))}.${s}`)).toBe('bad_signature');
    });

    it('refuses alg none, with or without a signature', async () => {
      const none = { alg: 'none', kid: current.kid, typ: ENTITLEMENT_TYPE };
      expect(await reason(`${segment(none)}.${segment(document())}.`)).toBe('malformed');
      expect(await reason(token(document(), none))).toBe('unsupported_header');
    });

    it('refuses HS256 keyed with the public key (the algorithm confusion attack)', async () => {
      const header = segment({ alg: 'HS256', kid: current.kid, typ: ENTITLEMENT_TYPE });
      const input = `${header}.${segment(document())}`;
      for (const secret of [current.x, Buffer.from(current.x, 'base64url'), JSON.stringify(current.jwk)]) {
        const mac = createHmac('sha256', secret).update(input).digest('base64url');
        expect(await reason(`${input}.${mac}`)).toBe('unsupported_header');
      }
    });

    it('refuses any header beyond {alg, kid, typ}, another typ, and an unknown kid', async () => {
      const base = { alg: 'EdDSA', kid: current.kid, typ: ENTITLEMENT_TYPE };
      expect(await reason(token(document(), { ...base, jku: 'https://evil.example/keys' }))).toBe('unsupported_header');
      expect(await reason(token(document(), { ...base, typ: 'JWT' }))).toBe('unsupported_header');
      expect(await reason(token(document(), { alg: 'EdDSA', typ: ENTITLEMENT_TYPE }))).toBe('unsupported_header');
      expect(await reason(token(document(), { ...base, kid: 'someone-else' }))).toBe('unknown_key');
    });

    it('refuses a signature made by another key under the published kid', async () => {
      expect(await reason(token(document(), undefined, keyPair(current.kid).privateKey))).toBe('bad_signature');
    });

    it('refuses a signed payload that is not an entitlement document', async () => {
      const withoutSeq: Partial<EntitlementDocument> = document();
      delete withoutSeq.seq;
      expect(await reason(token(withoutSeq))).toBe('invalid_document');
      expect(await reason(token({ ...document(), admin: true }))).toBe('invalid_document');
      expect(await reason(token(document({ exp: nowS + 20 * DAY })))).toBe('invalid_document'); // past its own grace
      expect(await reason(token('just text'))).toBe('invalid_document');
    });
  });

  describe('time', () => {
    it('is valid until exp, valid in grace until grace_until, then expired', async () => {
      const t = token();
      const at = (s: number) => new Date(s * 1000);
      expect(await reason(t, {}, at(document().exp))).toBe('valid');
      expect(await reason(t, {}, at(document().exp + 1))).toBe('valid-in-grace');
      expect(await reason(t, {}, at(document().grace_until))).toBe('valid-in-grace');
      expect(await reason(t, {}, at(document().grace_until + 1))).toBe('expired');
    });

    it('refuses a document issued in the future beyond the skew, and allows a small skew', async () => {
      expect(await reason(token(document({ iat: nowS + 299 })))).toBe('valid');
      expect(await reason(token(document({ iat: nowS + 301 })))).toBe('not_yet_valid');
      expect(await reason(token(document({ iat: nowS + 3600 })), { skewSeconds: 0 })).toBe('not_yet_valid');
    });
  });

  describe('garbage', () => {
    it('refuses truncated, garbled and non-text tokens', async () => {
      const t = token();
      expect(await reason(t.slice(0, -1))).toBe('malformed'); // 63-byte signature
      expect(await reason(t.slice(0, -10))).toBe('malformed');
      expect(await reason(t.slice(0, t.lastIndexOf('.')))).toBe('malformed');
      expect(await reason(`${t}.extra`)).toBe('malformed');
      expect(await reason(t.replace('.', '.!'))).toBe('malformed');
      expect(await reason('not a token at all')).toBe('malformed');
      expect(await reason(`${base64urlEncode(Buffer.from('{"alg":'))}.e30.${t.split('.')[2]}`)).toBe('unsupported_header');
      expect(await reason(undefined)).toBe('malformed');
      expect(await reason({ token: t })).toBe('malformed');
    });

    it('refuses a signature spelled in a non-canonical base64url', async () => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const t = token();
      // 64 bytes end in a character carrying 4 unused bits: setting one would decode to the same bytes.
      const twin = alphabet[alphabet.indexOf(t.at(-1)!) + 1]!;
      expect(base64urlDecode(t.split('.')[2]!.slice(0, -1) + twin)).toBeNull();
      expect(await reason(t.slice(0, -1) + twin)).toBe('malformed');
    });

    it('refuses an oversized token before reading it', async () => {
      const huge = document({
        networks: Array.from({ length: 1000 }, (_, i) => ({ ...document().networks[0]!, name: `Network ${i} ${'x'.repeat(60)}` })),
      });
      expect(await reason(token(huge))).toBe('too_large');
    });

    it('refuses everything when the key set is not a key set', async () => {
      expect(await reason(token(), {}, NOW, { keys: [{ ...current.jwk, crv: 'X25519' }] })).toBe('unknown_key');
      expect(await reason(token(), {}, NOW, null)).toBe('unknown_key');
    });
  });

  describe("the host's own checks", () => {
    it('refuses another issuer, another device, and an older revision than the one held', async () => {
      expect(await reason(token(), { issuer: 'https://meshwork.example' })).toBe('valid');
      expect(await reason(token(), { issuer: 'https://evil.example' })).toBe('wrong_issuer');
      expect(await reason(token(), { deviceId: '00000000-0000-4000-8000-000000000000' })).toBe('wrong_device');
      expect(await reason(token(), { minSeq: 42 })).toBe('valid');
      expect(await reason(token(), { minSeq: 43 })).toBe('stale');
    });
  });
});
