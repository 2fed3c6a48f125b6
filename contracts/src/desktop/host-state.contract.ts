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

/** What an answer uses where its request sets nothing: the model's own sampling, else the host's defaults. */
export const HostGenerationDefaults = z.object({
  temperature: z.number().min(0),
  top_p: z.number().gt(0).max(1),
  top_k: z.number().int().min(0),
  repeat_penalty: z.number().gt(0),
  max_tokens: z.number().int().min(1),
});
export type HostGenerationDefaults = z.output<typeof HostGenerationDefaults>;

/** A model as the host shows it: what the plan allows, what is on disk, what is coming down. */
export const HostModel = z.object({
  /** The catalog's name: what requests and the OpenAI api name it by. */
  name: z.string(),
  /** The name people see (the catalog's display name; the name until the host has learnt it). */
  display_name: z.string(),
  version: z.string(),
  /** Whether the plan allows it now; an installed model that is no longer allowed is offered for removal. */
  allowed: z.boolean(),
  status: z.enum(['not-downloaded', 'queued', 'downloading', 'installed', 'failed']),
  /**
   * While queued or downloading, what the host is doing: waiting its turn, checking the bytes a
   * download already holds (after a restart), receiving bytes, or moving the package into place.
   * Null otherwise.
   */
  activity: z.enum(['waiting', 'verifying', 'downloading', 'installing']).nullable(),
  bytes_done: z.number().int().min(0),
  bytes_total: z.number().int().min(0),
  /** Over the last second; 0 while no bytes arrive. */
  bytes_per_second: z.number().min(0),
  /** Installed: what its answers use where a request sets nothing (the playground shows them). */
  generation: HostGenerationDefaults.nullable(),
  error: z.string().nullable(),
});
export type HostModel = z.output<typeof HostModel>;

/** A device of this device's LAN network, as the host sees it (a client sees what the host tells it). */
export const HostNetworkMember = z.object({
  device_id: z.string(),
  name: z.string(),
  role: z.enum(['host', 'client']),
  /** Connected to the host now. */
  online: z.boolean(),
  /** The model's blocks this device runs (indices into the package's blocks), empty while it runs none. */
  blocks: z.array(z.number().int().min(0)),
  /** Memory the device had free when it last reported, and its measured speed (higher is faster). */
  free_memory_bytes: z.number().int().min(0),
  speed: z.number().min(0),
  joined_at: z.string(),
});
export type HostNetworkMember = z.output<typeof HostNetworkMember>;

/**
 * Why the network does not run the model now, as a code the window words in its language, with
 * the values the words name. `reason` (not_serving) is the runtime's serving reason; `message`
 * (host_refused) is the host device's own words over the LAN; `error` is the connection's failure.
 */
export const HostNetworkMessage = z.discriminatedUnion('code', [
  /** The host: Meshwork has not yet listed the network in this device's signed document. */
  z.object({ code: z.literal('awaiting_confirmation') }),
  z.object({ code: z.literal('suspended') }),
  z.object({ code: z.literal('not_serving'), reason: z.string() }),
  z.object({ code: z.literal('model_missing'), model: z.string() }),
  /** A client: its host refused it on reconnecting. */
  z.object({ code: z.literal('host_refused'), message: z.string() }),
  z.object({ code: z.literal('host_unreachable'), error: z.string() }),
  z.object({ code: z.literal('host_offline'), error: z.string() }),
]);
export type HostNetworkMessage = z.output<typeof HostNetworkMessage>;

/** The LAN network this device hosts or belongs to. */
export const HostNetwork = z.object({
  id: z.string(),
  name: z.string(),
  model: z.string(),
  role: z.enum(['host', 'client']),
  status: z.enum(['active', 'suspended']),
  /** Clients the plan admits (from the signed document, so it holds offline); `null` is unlimited. */
  max_clients: z.number().int().min(0).nullable(),
  /** The code clients join with (the host only), while it lasts. */
  join_code: z.object({ code: z.string(), expires_at: z.string() }).nullable(),
  /** The host: where its network's devices reach it (address:port), for one that cannot see its announcement. */
  addresses: z.array(z.string()),
  /** A client: whether it is connected to its host now. The host: always true. */
  connected: z.boolean(),
  members: z.array(HostNetworkMember),
  /** Why the network does not run the model now (a code the window words); `null` while it does. */
  message: HostNetworkMessage.nullable(),
  /**
   * The host's TLS certificate (SHA-256, hex): the host's own, or the one a client pinned at its
   * join. A joining device's window shows the one it is about to join, to compare with this.
   */
  certificate_sha256: z.string().nullable(),
});
export type HostNetwork = z.output<typeof HostNetwork>;

/** A network a host announces on the LAN, of this device's own customer, that it may join with the code. */
export const DiscoveredNetwork = z.object({
  id: z.string(),
  name: z.string(),
  model: z.string(),
  host_name: z.string(),
  address: z.string(),
  port: z.number().int(),
  /** The announcing host's TLS certificate (SHA-256, hex), whose key signed the announcement. */
  certificate_sha256: z.string(),
  /**
   * Whether this device trusts that certificate for the network: its signed document names it as
   * the host's (the api vouches for it), or, where it names none, this device joined it before.
   */
  verified: z.boolean(),
});
export type DiscoveredNetwork = z.output<typeof DiscoveredNetwork>;

/**
 * Where the host's trust in its plan comes from: the platform's keys its release carries, or
 * (a copy run from the sources) the keys it pinned at first sign-in, which anyone who can edit
 * its data folder can replace. `problem` says why the plan cannot be trusted now (the api's
 * documents do not verify, or the clock went back): models are not served meanwhile.
 */
export const HostTrust = z.object({ source: z.enum(['release', 'first-sign-in']), problem: z.string().nullable() });
export type HostTrust = z.output<typeof HostTrust>;

export const HostState = z.object({
  version: z.string(),
  account: HostAccount,
  connection: HostConnection,
  entitlements: HostEntitlements.nullable(),
  trust: HostTrust,
  /** Whether models may be served now, and if not, why (shown to the person as it is). */
  serving: z.object({ allowed: z.boolean(), reason: z.string().nullable() }),
  models: z.array(HostModel),
  /** The network this device hosts or belongs to, if any. */
  network: HostNetwork.nullable(),
  /** Networks of this customer announced on the LAN now. */
  discovered: z.array(DiscoveredNetwork),
});
export type HostState = z.output<typeof HostState>;

/** POST /host/sign-in/password: the fallback when the person cannot open /activate. */
export const HostPasswordSignIn = LoginRequest.pick({ email: true, password: true });
export type HostPasswordSignIn = z.input<typeof HostPasswordSignIn>;

/** POST /host/models/download and /host/models/remove. */
export const HostModelRequest = z.object({ name: z.string().min(1, 'Model name is required').max(100) });
export type HostModelRequest = z.input<typeof HostModelRequest>;

/** POST /host/network/create: this device creates a network for a model the plan allows and hosts it. */
export const HostNetworkCreate = z.object({
  name: z.string().trim().min(1, 'Name the network').max(100, 'Ensure this field has no more than 100 characters.'),
  model: z.string().min(1, 'Choose a model').max(100),
});
export type HostNetworkCreate = z.input<typeof HostNetworkCreate>;

/**
 * POST /host/network/join: join a discovered network with the code its host shows, or, where
 * the LAN does not carry announcements, the host's address (address:port, as its window shows).
 */
export const HostNetworkJoin = z
  .object({
    network_id: z.string().min(1).max(64).optional(),
    /** The announcing host the window chose (its certificate's SHA-256): another device announcing the same network is not it. */
    certificate_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    address: z
      .string()
      .regex(/^[0-9a-fA-F.:[\]]+:\d{1,5}$/, 'Enter the address as the host shows it, for example 192.168.1.20:8433')
      .optional(),
    code: z.string().trim().min(1, 'Enter the join code the host shows').max(20),
  })
  .refine((join) => join.network_id !== undefined || join.address !== undefined, {
    message: 'Choose a network on this LAN, or enter its host’s address',
    path: ['network_id'],
  });
export type HostNetworkJoin = z.input<typeof HostNetworkJoin>;

/** POST /host/network/remove-member (the host): the client leaves the network at once. */
export const HostNetworkRemoveMember = z.object({ device_id: z.string().min(1).max(64) });
export type HostNetworkRemoveMember = z.input<typeof HostNetworkRemoveMember>;
