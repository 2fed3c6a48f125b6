import { z } from 'zod';
import { LoginRequest } from '../identity/account.contract';
import { EntitledModel, EntitledNetwork, EntitledPlan } from '../entitlements/entitlement-document.contract';

/**
 * What the desktop runtime tells its UI (and the Electron shell) about itself: GET /host/state
 * on the runtime's loopback server, and each `state` event of GET /host/events. The runtime owns
 * all of it; the UI only renders it and sends commands.
 */

export const HostAccount = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed-out'), message: z.string().nullable() }),
  /** The device code flow is under way: the person enters `user_code` at `verification_uri`. */
  z.object({
    status: z.literal('signing-in'),
    user_code: z.string(),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_at: z.string(),
  }),
  z.object({ status: z.literal('signed-in'), device_id: z.string(), device_name: z.string(), api: z.string() }),
]);
export type HostAccount = z.output<typeof HostAccount>;

/**
 * Whether the api is reachable: `online` while the entitlement stream is open, `offline` while
 * it is not (the host keeps working on the document it holds until `grace_until`).
 */
export const HostConnection = z.enum(['online', 'connecting', 'offline']);
export type HostConnection = z.output<typeof HostConnection>;

export const HostEntitlements = z.object({
  /** `valid` until `expires_at`, `in-grace` until `grace_until`, then `expired`: models stop being served. */
  status: z.enum(['valid', 'in-grace', 'expired']),
  plan: EntitledPlan,
  models: z.array(EntitledModel),
  networks: z.array(EntitledNetwork),
  issued_at: z.string(),
  expires_at: z.string(),
  grace_until: z.string(),
  /** Seconds until models stop being served without a new document (0 once expired). */
  seconds_left: z.number().int().min(0),
  seq: z.number().int(),
});
export type HostEntitlements = z.output<typeof HostEntitlements>;

/** A model as the host shows it: what the plan allows, what is on disk, what is coming down. */
export const HostModel = z.object({
  name: z.string(),
  version: z.string(),
  /** Whether the plan allows it now; an installed model that is no longer allowed is offered for removal. */
  allowed: z.boolean(),
  status: z.enum(['not-downloaded', 'queued', 'downloading', 'installed', 'failed']),
  bytes_done: z.number().int().min(0),
  bytes_total: z.number().int().min(0),
  bytes_per_second: z.number().min(0),
  error: z.string().nullable(),
});
export type HostModel = z.output<typeof HostModel>;

export const HostState = z.object({
  version: z.string(),
  account: HostAccount,
  connection: HostConnection,
  entitlements: HostEntitlements.nullable(),
  /** Whether models may be served now, and if not, why (shown to the person as it is). */
  serving: z.object({ allowed: z.boolean(), reason: z.string().nullable() }),
  models: z.array(HostModel),
});
export type HostState = z.output<typeof HostState>;

/** POST /host/sign-in/password: the fallback when the person cannot open /activate. */
export const HostPasswordSignIn = LoginRequest.pick({ email: true, password: true });
export type HostPasswordSignIn = z.input<typeof HostPasswordSignIn>;

/** POST /host/models/download and /host/models/remove. */
export const HostModelRequest = z.object({ name: z.string().min(1, 'Model name is required').max(100) });
export type HostModelRequest = z.input<typeof HostModelRequest>;
