import { createHash, randomInt } from 'node:crypto';
import { USER_CODE_ALPHABET } from '@meshwork/contracts';

/** A fresh join code: 8 characters of the user code's alphabet (20^8, about 35 bits). */
export const newJoinCode = (): string => Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');

/**
 * The code as the log holds it. A plain SHA-256 is enough: a code lives 15 minutes, is found
 * only among the caller's own networks, and joins are rate-limited per device.
 */
export const joinCodeHash = (normalized: string): string => createHash('sha256').update(normalized).digest('base64url');
