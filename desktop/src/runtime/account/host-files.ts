import { join } from 'node:path';
import { z } from 'zod';
import { EntitlementKeySet } from '@meshwork/contracts';
import { JsonFile } from '../platform/json-file';

/** The signed-in device: which api, which device, its tokens. */
export const AccountRecord = z.object({
  api: z.string(),
  device_id: z.string(),
  device_name: z.string(),
  access_token: z.string(),
  refresh_token: z.string(),
});
export type AccountRecord = z.output<typeof AccountRecord>;

/** Key sets a host follows from its root before it asks for a newer release: years of rotations. */
export const MAX_KEY_SETS = 32;

/**
 * The keys this host trusts to sign its documents. A release carries its root keys, and
 * `key_sets` are the signed key sets (GET /devices/keys/signed/) followed since, oldest first:
 * the keys are worked out again from the root through them at every start, so an edit of this
 * file adds no key. A copy with no release pins `keys` at first sign-in instead, replaced only by
 * a key set that a pinned key signed (`key_set_iat` keeps an older set from coming back).
 */
export const TrustRecord = z.object({
  issuer: z.string(),
  key_set_iat: z.number().int(),
  keys: EntitlementKeySet,
  key_sets: z.array(z.string()).max(MAX_KEY_SETS).default([]),
});
export type TrustRecord = z.output<typeof TrustRecord>;

/**
 * The last signed entitlement document, verified again every time it is read, and the latest
 * time the host has trusted (seconds), sealed with a key kept in its own file: the clock going
 * back behind it does not bring an expired plan back.
 */
export const EntitlementRecord = z.object({
  token: z.string(),
  trusted_time: z.object({ at: z.number().int().min(0), seal: z.string() }).optional(),
});
export type EntitlementRecord = z.output<typeof EntitlementRecord>;

/** The key of the trusted time's seal. */
export const SealKeyRecord = z.object({ key: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/** The host's files in its data directory. */
export function hostFiles(dataDir: string) {
  return {
    account: new JsonFile(join(dataDir, 'account.json'), AccountRecord),
    trust: new JsonFile(join(dataDir, 'trust.json'), TrustRecord),
    entitlements: new JsonFile(join(dataDir, 'entitlements.json'), EntitlementRecord),
    sealKey: new JsonFile(join(dataDir, 'time-seal.json'), SealKeyRecord),
  };
}
export type HostFiles = ReturnType<typeof hostFiles>;
