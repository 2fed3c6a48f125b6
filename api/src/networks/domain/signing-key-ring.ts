import { type EntitlementKeySet, type EntitlementPublicKey, SIGNING_KEY_RETENTION_SECONDS } from '@meshwork/contracts';

/** A published key beside the signing one: the next (no retirement time) or a retired one. */
export interface OtherKey {
  kid: string;
  /** The public key, base64url. */
  x: string;
  retiredAt: Date | null;
}

export interface SigningKeyRing {
  /** The key that signs now. */
  active: { kid: string; x: string };
  others: readonly OtherKey[];
}

const jwk = (kid: string, x: string): EntitlementPublicKey => ({ kty: 'OKP', crv: 'Ed25519', kid, x, use: 'sig', alg: 'EdDSA' });

/**
 * Whether a key is still published at `now`. A retired key stays until every document it
 * signed has expired, offline grace included (it signed nothing after `retiredAt`); the next
 * key is published ahead of signing so hosts hold it before the first document it signs.
 */
export const stillPublished = (key: OtherKey, now: Date): boolean =>
  key.retiredAt === null || now.getTime() <= key.retiredAt.getTime() + SIGNING_KEY_RETENTION_SECONDS * 1000;

/** The JWK set GET /devices/keys/ answers: the signing key first, then the others still published. */
export function publishedKeys(ring: SigningKeyRing, now: Date): EntitlementKeySet {
  return {
    keys: [jwk(ring.active.kid, ring.active.x), ...ring.others.filter((key) => stillPublished(key, now)).map((key) => jwk(key.kid, key.x))],
  };
}
