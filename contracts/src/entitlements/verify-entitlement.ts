import { base64urlDecode } from './base64url';
import {
  ENTITLEMENT_CLOCK_SKEW_SECONDS,
  EntitlementDocument,
  EntitlementHeader,
  EntitlementKeySet,
  KeySetHeader,
  KeySetPayload,
  MAX_ENTITLEMENT_TOKEN_LENGTH,
} from './entitlement-document.contract';
import { subtleCrypto, utf8Decode, utf8Encode } from './web-platform';

/** Why a token was refused; `unknown_key` is the host's cue to fetch the key set again. */
export type EntitlementRejection =
  | 'malformed'
  | 'too_large'
  | 'unsupported_header'
  | 'unknown_key'
  | 'bad_signature'
  | 'invalid_document'
  | 'wrong_issuer'
  | 'wrong_device'
  | 'stale'
  | 'not_yet_valid'
  | 'expired';

export type EntitlementVerdict =
  | { status: 'valid' | 'valid-in-grace'; document: EntitlementDocument; kid: string }
  | { status: 'rejected'; reason: EntitlementRejection; message: string };

export interface VerifyEntitlementOptions {
  /** The api the host signed in to: a document from another issuer is refused. */
  issuer?: string;
  /** This device's id: a document issued to another device is refused. */
  deviceId?: string;
  /** The `seq` of the document the host holds: an older one (a replay of a better plan) is refused. */
  minSeq?: number;
  /** How far ahead of `now` an `iat` may be; ENTITLEMENT_CLOCK_SKEW_SECONDS by default. */
  skewSeconds?: number;
}

const COMPACT_JWS = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;
const ED25519_SIGNATURE_BYTES = 64;

type Rejected = { status: 'rejected'; reason: EntitlementRejection; message: string };
const reject = (reason: EntitlementRejection, message: string): Rejected => ({ status: 'rejected', reason, message });

/** JSON from a base64url segment, or undefined when any step fails. */
function decodeJson(segment: string): unknown {
  const bytes = base64urlDecode(segment);
  if (!bytes) return undefined;
  try {
    return JSON.parse(utf8Decode(bytes));
  } catch {
    return undefined;
  }
}

type SignedPayload = { payload: unknown; kid: string } | Rejected;

/**
 * The compact JWS checks both signed kinds share. The header must be exactly `{alg: "EdDSA",
 * kid, typ}` with the expected `typ` (no algorithm is taken from the token: `none` and HS256
 * tricks fail there), and the signature must verify under that kid's Ed25519 key. Only then is
 * the payload decoded.
 */
async function verifySignedPayload(
  token: unknown,
  keySet: unknown,
  header: typeof EntitlementHeader | typeof KeySetHeader,
): Promise<SignedPayload> {
  if (typeof token !== 'string') return reject('malformed', 'The token is not text');
  if (token.length > MAX_ENTITLEMENT_TOKEN_LENGTH)
    return reject('too_large', `The token is longer than ${MAX_ENTITLEMENT_TOKEN_LENGTH} characters`);
  const parts = COMPACT_JWS.exec(token);
  if (!parts) return reject('malformed', 'The token is not a JWS in compact form');
  const [, headerPart, payloadPart, signaturePart] = parts as unknown as [string, string, string, string];

  const parsedHeader = header.safeParse(decodeJson(headerPart));
  if (!parsedHeader.success)
    return reject('unsupported_header', `The header is not {alg: "EdDSA", kid, typ} of a ${header.shape.typ.value}`);
  const keys = EntitlementKeySet.safeParse(keySet);
  const key = keys.success ? keys.data.keys.find((k) => k.kid === parsedHeader.data.kid) : undefined;
  if (!key) return reject('unknown_key', `No published key has the id ${parsedHeader.data.kid}`);

  const signature = base64urlDecode(signaturePart);
  if (signature?.length !== ED25519_SIGNATURE_BYTES) return reject('malformed', 'The signature is not an Ed25519 signature');
  const subtle = subtleCrypto();
  let verified: boolean;
  try {
    const publicKey = await subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: key.x }, { name: 'Ed25519' }, false, ['verify']);
    verified = await subtle.verify({ name: 'Ed25519' }, publicKey, signature, utf8Encode(`${headerPart}.${payloadPart}`));
  } catch {
    verified = false; // a published x that is not a point on the curve verifies nothing
  }
  if (!verified) return reject('bad_signature', `The signature does not match key ${key.kid}`);
  return { payload: decodeJson(payloadPart), kid: key.kid };
}

/**
 * Verifies a signed entitlement document against the published key set at `now`: the
 * desktop host's one check, online or offline. Plain WebCrypto, so it runs in Node 24 and
 * browsers alike. Answers `valid` until `exp`, `valid-in-grace` until `grace_until`, else
 * `rejected` with a reason.
 */
export async function verifyEntitlementToken(
  token: unknown,
  keySet: unknown,
  now: Date,
  options: VerifyEntitlementOptions = {},
): Promise<EntitlementVerdict> {
  const signed = await verifySignedPayload(token, keySet, EntitlementHeader);
  if ('status' in signed) return signed;
  const parsed = EntitlementDocument.safeParse(signed.payload);
  if (!parsed.success) return reject('invalid_document', 'The signed payload is not an entitlement document this host understands');
  const document = parsed.data;
  if (!(document.iat <= document.exp && document.exp <= document.grace_until))
    return reject('invalid_document', 'The document’s times are out of order');
  if (options.issuer !== undefined && document.iss !== options.issuer) return reject('wrong_issuer', `Issued by ${document.iss}`);
  if (options.deviceId !== undefined && document.sub !== options.deviceId) return reject('wrong_device', 'Issued to another device');
  if (options.minSeq !== undefined && document.seq < options.minSeq) return reject('stale', 'Older than the document already held');

  const at = Math.floor(now.getTime() / 1000);
  if (document.iat > at + (options.skewSeconds ?? ENTITLEMENT_CLOCK_SKEW_SECONDS)) return reject('not_yet_valid', 'Issued in the future');
  if (at > document.grace_until) return reject('expired', 'Expired, and its offline grace has ended');
  return { status: at > document.exp ? 'valid-in-grace' : 'valid', document, kid: signed.kid };
}

export type KeySetVerdict =
  { status: 'valid'; keySet: KeySetPayload; kid: string } | { status: 'rejected'; reason: EntitlementRejection; message: string };

/**
 * Verifies a signed key set (GET /devices/keys/signed/) against the keys the host pinned: the
 * only way a host trusts a new signing key. Refuses another issuer's set (when the host knows
 * its issuer) and one older than `minIat` (a replayed set could bring back a retired key).
 */
export async function verifyKeySetToken(
  token: unknown,
  pinned: unknown,
  now: Date,
  options: { issuer?: string; minIat?: number; skewSeconds?: number },
): Promise<KeySetVerdict> {
  const signed = await verifySignedPayload(token, pinned, KeySetHeader);
  if ('status' in signed) return signed;
  const parsed = KeySetPayload.safeParse(signed.payload);
  if (!parsed.success) return reject('invalid_document', 'The signed payload is not a key set');
  const keySet = parsed.data;
  if (options.issuer !== undefined && keySet.iss !== options.issuer) return reject('wrong_issuer', `Issued by ${keySet.iss}`);
  if (options.minIat !== undefined && keySet.iat < options.minIat) return reject('stale', 'Older than the key set already pinned');
  if (keySet.iat > Math.floor(now.getTime() / 1000) + (options.skewSeconds ?? ENTITLEMENT_CLOCK_SKEW_SECONDS))
    return reject('not_yet_valid', 'Issued in the future');
  return { status: 'valid', keySet, kid: signed.kid };
}
