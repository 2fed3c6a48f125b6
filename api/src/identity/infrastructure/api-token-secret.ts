import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { API_TOKEN_PREFIX } from '@meshwork/contracts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 256 bits need 43 base62 digits (62^43 > 2^256); a CRC32 needs 6. */
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const TOKEN_LENGTH = API_TOKEN_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;

function base62(value: bigint, length: number): string {
  let digits = '';
  for (let rest = value; rest > 0n; rest /= 62n) digits = BASE62[Number(rest % 62n)]! + digits;
  return digits.padStart(length, '0');
}

const checksumOf = (body: string) => base62(BigInt(crc32(body)), CHECKSUM_LENGTH);

/**
 * A new secret, GitHub's way: prefix, 256 random bits in base62, and a CRC32 of them in
 * base62, so a secret scanner can tell a real token from a lookalike offline.
 */
export function newApiTokenSecret(): string {
  const body = base62(BigInt(`0x${randomBytes(32).toString('hex')}`), BODY_LENGTH);
  return `${API_TOKEN_PREFIX}${body}${checksumOf(body)}`;
}

/** Whether this looks like one of ours, checksum included: anything else is refused without a database read. */
export function isWellFormedApiToken(token: string): boolean {
  if (token.length !== TOKEN_LENGTH || !token.startsWith(API_TOKEN_PREFIX)) return false;
  const body = token.slice(API_TOKEN_PREFIX.length, -CHECKSUM_LENGTH);
  if (![...body].every((c) => BASE62.includes(c))) return false;
  return checksumOf(body) === token.slice(-CHECKSUM_LENGTH);
}

/**
 * What is stored of a token. One SHA-256, no salt and no slow hash: those exist to slow the
 * guessing of low-entropy passwords, and a token is 256 uniformly random bits, beyond any
 * brute force, so a fast hash is as safe and keeps the per-request lookup an index probe.
 */
export const apiTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
