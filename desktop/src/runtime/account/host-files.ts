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

/**
 * The keys this host trusts to sign its documents: pinned at first sign-in, replaced only by a
 * key set that a pinned key signed (`key_set_iat` keeps an older set from coming back).
 */
export const TrustRecord = z.object({ issuer: z.string(), key_set_iat: z.number().int(), keys: EntitlementKeySet });
export type TrustRecord = z.output<typeof TrustRecord>;

/** The last signed entitlement document, verified again every time it is read. */
export const EntitlementRecord = z.object({ token: z.string() });

/** The host's files in its data directory. */
export function hostFiles(dataDir: string) {
  return {
    account: new JsonFile(join(dataDir, 'account.json'), AccountRecord),
    trust: new JsonFile(join(dataDir, 'trust.json'), TrustRecord),
    entitlements: new JsonFile(join(dataDir, 'entitlements.json'), EntitlementRecord),
  };
}
export type HostFiles = ReturnType<typeof hostFiles>;
