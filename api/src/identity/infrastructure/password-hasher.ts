import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id at OWASP's recommended minimum (19 MiB memory, 2 passes, 1 lane). @node-rs/argon2
 * (the Rust implementation, prebuilt per platform in the npm registry) runs off the event
 * loop and measured 1.5x faster here than Node's own crypto.argon2, which is what keeps
 * sign-in latency low on two cores. Hashes are standard PHC strings, so the parameters can
 * be raised later and old hashes still verify with the ones they were made with.
 */
export const ARGON2_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

/** Algorithm.Argon2id in @node-rs/argon2 (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { ...ARGON2_PARAMS, algorithm: ARGON2ID });
}

export async function verifyPassword(password: string, phc: string): Promise<boolean> {
  try {
    return await verify(phc, password);
  } catch {
    return false; // not a hash we can read: no match
  }
}

/**
 * Verified against when the email is unknown, so a failed sign-in takes as long whether
 * or not the account exists (no account enumeration by timing). Made once, lazily.
 */
let dummy: Promise<string> | null = null;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password-0');
  return dummy;
}
