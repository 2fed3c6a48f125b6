import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * argon2id at OWASP's recommended minimum (19 MiB memory, 2 passes, 1 lane), through
 * Node's own implementation, which runs on the libuv thread pool and so never blocks the
 * event loop. Hashes are PHC strings, so parameters can be raised later and old hashes
 * still verify with the parameters they were made with.
 */
export const ARGON2_PARAMS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

function derive(
  password: string,
  salt: Buffer,
  params: { memory: number; passes: number; parallelism: number; tagLength: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    argon2('argon2id', { message: password, nonce: salt, ...params }, (error, hash) => (error ? reject(error) : resolve(hash))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, ARGON2_PARAMS);
  const { memory, passes, parallelism } = ARGON2_PARAMS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, phc: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(phc);
  if (!match) return false;
  const [, memory, passes, parallelism, salt, expected] = match;
  const wanted = Buffer.from(expected!, 'base64url');
  const actual = await derive(password, Buffer.from(salt!, 'base64url'), {
    memory: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagLength: wanted.length,
  });
  return timingSafeEqual(actual, wanted);
}

/**
 * Verified against when the email is unknown, so a failed sign-in takes as long whether
 * or not the account exists (no account enumeration by timing).
 */
export const DUMMY_HASH = `$argon2id$v=19$m=${ARGON2_PARAMS.memory},t=${ARGON2_PARAMS.passes},p=${ARGON2_PARAMS.parallelism}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
