import { z } from 'zod';
import { UUID_PATTERN } from '../common/fields';

/**
 * The signed entitlement document (issue 12, section 3): what a desktop host obeys, online or
 * offline. It travels as a JWS compact token, `base64url(header).base64url(payload).base64url(sig)`,
 * signed with Ed25519 (`alg: "EdDSA"`) under a key id the api publishes at GET /devices/keys/.
 */

/** The payload's format version; a host refuses a version it does not know. */
export const ENTITLEMENT_VERSION = 1;
/** The header's `typ` (RFC 8725 explicit typing): a token of another kind cannot pass as this one. */
export const ENTITLEMENT_TYPE = 'mw-entitlements+jwt';
/** A document is fresh for 7 days after it is issued... */
export const ENTITLEMENT_LIFETIME_SECONDS = 7 * 86_400;
/** ...and a host that cannot reach the api keeps working for this long after that. */
export const ENTITLEMENT_OFFLINE_GRACE_SECONDS = 7 * 86_400;
/** A retired signing key stays published this long: every document it signed has expired by then. */
export const SIGNING_KEY_RETENTION_SECONDS = ENTITLEMENT_LIFETIME_SECONDS + ENTITLEMENT_OFFLINE_GRACE_SECONDS;

/**
 * Whether a published key (other than the signing one) is still published at `now`: the next
 * key (never retired) always; a retired one until every document it signed has expired, offline
 * grace included (it signed nothing after `retiredAt`).
 */
export const stillPublished = (key: { retiredAt: Date | null }, now: Date): boolean =>
  key.retiredAt === null || now.getTime() <= key.retiredAt.getTime() + SIGNING_KEY_RETENTION_SECONDS * 1000;
/** How far ahead of the host's clock an `iat` may be (clocks drift; the api's is not the host's). */
export const ENTITLEMENT_CLOCK_SKEW_SECONDS = 300;
/** Larger tokens are refused before any decoding: no document comes near it. */
export const MAX_ENTITLEMENT_TOKEN_LENGTH = 64 * 1024;

/** A key id: short, and safe in a header, a URL and a config variable. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const keyId = z.string().regex(KEY_ID_PATTERN);
const uuid = z.string().regex(UUID_PATTERN);
const seconds = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A plan limit; `null` is unlimited (the plans store 999 for it, see `UNLIMITED`). */
const limit = z.number().int().min(0).nullable();

/** The protected header: exactly these three, so nothing (`jku`, `jwk`, `crit`...) can steer verification. */
export const EntitlementHeader = z.strictObject({ alg: z.literal('EdDSA'), kid: keyId, typ: z.literal(ENTITLEMENT_TYPE) });
export type EntitlementHeader = z.output<typeof EntitlementHeader>;

export const EntitledPlan = z.strictObject({
  slug: z.string().min(1).max(40),
  name: z.string().min(1).max(200),
  max_networks: limit,
  max_clients_per_network: limit,
  download_access: z.boolean(),
  /** When the paid period ends (ISO 8601); `null` on the free plan. */
  expires_at: z.string().max(40).nullable(),
});
export type EntitledPlan = z.output<typeof EntitledPlan>;

export const EntitledModel = z.strictObject({
  name: z.string().min(1).max(100),
  version: z.string().min(1).max(40),
  /** SHA-256 (hex) of the exact body of GET /api/v1/models/{name}/manifest/: the host checks the manifest it fetches. */
  manifest_sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type EntitledModel = z.output<typeof EntitledModel>;

export const EntitledNetwork = z.strictObject({
  id: uuid,
  name: z.string().min(1).max(200),
  role: z.enum(['host', 'client']),
  /** The model's name (one of `models` while the network is active). */
  model: z.string().min(1).max(100),
  /** Clients the network may hold; `null` is unlimited. */
  max_clients: limit,
  status: z.enum(['active', 'suspended']),
});
export type EntitledNetwork = z.output<typeof EntitledNetwork>;

/** A network's host as the api vouches for it: the LAN certificate its host device registered. */
export const EntitledHost = z.strictObject({
  /** The network (any of the account's, joined by this device or not). */
  id: uuid,
  /** SHA-256 (hex) of the host's TLS certificate (DER): an announcement with it is the real host's. */
  certificate_sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type EntitledHost = z.output<typeof EntitledHost>;

export const EntitlementDocument = z.strictObject({
  v: z.literal(ENTITLEMENT_VERSION),
  /** The api that issued it (its public URL). */
  iss: z.string().min(1).max(200),
  /** The device it was issued to. */
  sub: uuid,
  user_id: uuid,
  plan: EntitledPlan,
  models: z.array(EntitledModel).max(1000),
  networks: z.array(EntitledNetwork).max(1000),
  /**
   * The hosts of the owner's networks that registered a certificate, for every device of the
   * account (one that never joined a network included). Absent when there are none, so a
   * document without any reads as before.
   */
  hosts: z.array(EntitledHost).max(1000).optional(),
  /** Issued at, expires at, and the end of the offline grace: seconds since the epoch. */
  iat: seconds,
  exp: seconds,
  grace_until: seconds,
  /**
   * A monotonic revision that rises when, and only when, this device's document changes (its
   * times aside): the event log position then, or one above the last. The SSE event id; a host
   * never goes back to a lower one.
   */
  seq: seconds,
});
export type EntitlementDocument = z.output<typeof EntitlementDocument>;

/** One published public key (RFC 8037 OKP JWK). */
export const EntitlementPublicKey = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    kid: keyId,
    /** The 32-byte public key, base64url without padding. */
    x: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    use: z.literal('sig'),
    alg: z.literal('EdDSA'),
  })
  .meta({ id: 'EntitlementPublicKey' });
export type EntitlementPublicKey = z.output<typeof EntitlementPublicKey>;

/** GET /devices/keys/: every key a valid document may be signed with (the active one, the next, the recently retired). */
export const EntitlementKeySet = z.object({ keys: z.array(EntitlementPublicKey).max(20) }).meta({ id: 'EntitlementKeySet' });
export type EntitlementKeySet = z.output<typeof EntitlementKeySet>;

/**
 * GET /devices/keys/signed/: the same key set, signed by the active key, so a host that
 * pinned the keys at sign-in learns a rotation's new keys only from a key it already trusts.
 */
export const KEY_SET_TYPE = 'mw-keyset+jwt';
export const KeySetHeader = z.strictObject({ alg: z.literal('EdDSA'), kid: keyId, typ: z.literal(KEY_SET_TYPE) });
export const KeySetPayload = z.strictObject({
  iss: z.string().min(1).max(200),
  /** Issued at (seconds since the epoch): a host never goes back to an older set. */
  iat: seconds,
  keys: z.array(EntitlementPublicKey).min(1).max(20),
});
export type KeySetPayload = z.output<typeof KeySetPayload>;
export const SignedKeySet = z.object({ token: z.string().max(MAX_ENTITLEMENT_TOKEN_LENGTH) }).meta({ id: 'SignedKeySet' });
export type SignedKeySet = z.output<typeof SignedKeySet>;

/** GET /devices/entitlements/: the calling device's document, signed (verify it before trusting any of it). */
export const SignedEntitlements = z.object({ token: z.string().max(MAX_ENTITLEMENT_TOKEN_LENGTH) }).meta({ id: 'SignedEntitlements' });
export type SignedEntitlements = z.output<typeof SignedEntitlements>;
