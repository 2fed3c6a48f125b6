/**
 * Credentials by field name: password, token and code hashes, secrets, signatures, keys. Their
 * hashes could be attacked offline, so not even staff read them; the log keeps them.
 */
const SECRET_FIELD = /^(password|token|secret|signature|privateKey|code)$|(Hash|Secret|Password|Token|PrivateKey)$/;

/** What identity's vault writes in place of a personal field: readable only with its owner's key. */
const CIPHERTEXT_PREFIX = 'enc:v1:';

/**
 * An event's data as auditors see it: the same object without secrets and without encrypted
 * personal fields, at any depth. Personal fields are left out rather than decrypted so the
 * trail never holds what erasing an account must destroy.
 */
export function auditDetails(data: unknown): Record<string, unknown> {
  const kept = keep(data);
  return typeof kept === 'object' && kept !== null && !Array.isArray(kept) ? (kept as Record<string, unknown>) : {};
}

function keep(value: unknown): unknown {
  if (typeof value === 'string' && value.startsWith(CIPHERTEXT_PREFIX)) return undefined;
  if (Array.isArray(value)) return value.map(keep).filter((item) => item !== undefined);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_FIELD.test(key)) continue;
    const kept = keep(item);
    if (kept !== undefined) copy[key] = kept;
  }
  return copy;
}
