import { type KeyObject, createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/** What an access token says. `user_id` and `sub` both carry the id (the console reads either). */
export interface AccessClaims {
  sub: string;
  user_id: string;
  email: string;
  is_staff: boolean;
  /** The session (refresh-token family) this token belongs to; revoking it revokes the token. */
  sid: string;
  /** The device whose refresh-token family `sid` is (issue 12); absent for web sessions. */
  did?: string;
  iat: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

// An HMAC keyed by a raw Buffer builds a key object on every call (about 4x the cost of the
// HMAC itself); every authenticated request verifies a token, so each secret gets one, once.
const keyObjects = new WeakMap<Buffer, KeyObject>();
function hmacKey(secret: Buffer): KeyObject {
  let key = keyObjects.get(secret);
  if (!key) keyObjects.set(secret, (key = createSecretKey(secret)));
  return key;
}

/** Signs a short-lived HS256 JWT. */
export function signAccessToken(claims: Omit<AccessClaims, 'iat' | 'exp'>, secret: Buffer, ttlSeconds: number, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  const payload = Buffer.from(JSON.stringify({ ...claims, iat, exp: iat + ttlSeconds })).toString('base64url');
  const signature = createHmac('sha256', hmacKey(secret)).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

/** The claims of a token this server signed and that has not expired; null for anything else. */
export function verifyAccessToken(token: string, secret: Buffer, now: Date): AccessClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const expected = createHmac('sha256', hmacKey(secret)).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2]!, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as AccessClaims;
    return typeof claims.exp === 'number' && claims.exp > now.getTime() / 1000 ? claims : null;
  } catch {
    return null;
  }
}
