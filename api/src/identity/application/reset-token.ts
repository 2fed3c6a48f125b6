import { createHash } from 'node:crypto';

/** A reset token's secret as kept in the event: only its hash, so the log never holds a usable token. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('base64url');
