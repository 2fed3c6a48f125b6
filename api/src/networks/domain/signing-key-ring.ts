import { type EntitlementKeySet, type EntitlementPublicKey, stillPublished } from '@meshwork/contracts';

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

/** The JWK set GET /devices/keys/ answers: the signing key first, then the others still published (the next, and retired ones until their documents have expired). */
export function publishedKeys(ring: SigningKeyRing, now: Date): EntitlementKeySet {
  return {
    keys: [jwk(ring.active.kid, ring.active.x), ...ring.others.filter((key) => stillPublished(key, now)).map((key) => jwk(key.kid, key.x))],
  };
}
