import { z } from 'zod';
import type { ErrorBody } from '../http/http.contract';
import { LoginRequest } from '../identity/account.contract';
import { EntitledModel, EntitledNetwork, EntitledPlan } from '../entitlements/entitlement-document.contract';

/**
 * What the desktop runtime tells its UI (and the Electron shell) about itself: GET /host/state
 * on the runtime's loopback server, and each `state` event of GET /host/events. The runtime owns
 * all of it; the UI only renders it and sends commands.
 */

/**
 * Why the device is signed out, as a code the window words in its language. `error` and
 * `reason` are the api's own words (or the connection's failure), as it answered them.
 */
export const HostSignedOutMessage = z.discriminatedUnion('code', [
  /** The device code expired before anyone approved it. */
  z.object({ code: z.literal('code_expired') }),
  z.object({ code: z.literal('sign_in_failed'), error: z.string() }),
  /** The api refused the device's tokens. */
  z.object({ code: z.literal('session_ended'), reason: z.string() }),
  /** The entitlement stream: the device's session is gone, or the owner signed it out. */
  z.object({ code: z.literal('no_longer_signed_in') }),
  z.object({ code: z.literal('device_signed_out') }),
]);
export type HostSignedOutMessage = z.output<typeof HostSignedOutMessage>;

export const HostAccount = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed-out'), message: HostSignedOutMessage.nullable() }),
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

/**
 * Why a download failed, as a code the window words. `model` is the name people see; byte
 * counts are numbers the window formats; `error` (download_failed) is the transfer's own words
 * (the api's answer, the connection's failure).
 */
export const HostModelError = z.discriminatedUnion('code', [
  z.object({ code: z.literal('no_longer_in_plan'), model: z.string() }),
  z.object({ code: z.literal('manifest_mismatch'), model: z.string() }),
  z.object({ code: z.literal('disk_filled'), model: z.string() }),
  z.object({
    code: z.literal('disk_too_small'),
    model: z.string(),
    needed_bytes: z.number().int().min(0),
    free_bytes: z.number().int().min(0),
  }),
  z.object({ code: z.literal('download_failed'), error: z.string() }),
]);
export type HostModelError = z.output<typeof HostModelError>;

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
  error: HostModelError.nullable(),
});
export type HostModel = z.output<typeof HostModel>;

const shareBytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * What a device holds of its network's model and what that costs it, measured: the files on its
 * disk and where each came from (`lan`: the network's host; `platform`: Meshwork's presigned
 * links; `installed`: the whole package, downloaded for use on this device), a transfer under
 * way, and memory. `weights_bytes` is the held blocks' graphs and weights; `fixed_bytes` the
 * rest the device states (the runtime before any block loaded, and the key/value cache of its
 * blocks at the context in use); `rss_bytes`/`peak_rss_bytes` what the process uses now and at most.
 */
export const LanShareReport = z.strictObject({
  model: z.string().min(1).max(200),
  version: z.string().min(1).max(40),
  disk_bytes: shareBytes,
  files: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/),
        bytes: shareBytes,
        source: z.enum(['lan', 'platform', 'installed']),
      }),
    )
    .max(1000),
  transfer: z.strictObject({ done_bytes: shareBytes, total_bytes: shareBytes }).nullable(),
  memory: z.strictObject({ rss_bytes: shareBytes, peak_rss_bytes: shareBytes, weights_bytes: shareBytes, fixed_bytes: shareBytes }),
});
export type LanShareReport = z.output<typeof LanShareReport>;

/** A device of this device's LAN network, as the host sees it (a client sees what the host tells it). */
/**
 * The tokens a device ran through its blocks a second, as its host timed them: over the last
 * five seconds, and in each ten-second step of the last ten minutes (oldest first, the current
 * step last). `memory`: over the same steps, the highest resident memory the device measured
 * while it held a share (null where it measured none: it held no share, or was offline).
 */
export const MemberActivity = z.object({
  tokens_per_second: z.number().min(0),
  history: z.array(z.number().min(0)).max(60),
  memory: z.array(z.number().int().min(0).nullable()).max(60),
});
export type MemberActivity = z.output<typeof MemberActivity>;

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
  /** What it holds of the model, where each file came from, and its memory, measured (null: it holds nothing yet, or it is offline). */
  share: LanShareReport.nullable(),
  activity: MemberActivity,
});
export type HostNetworkMember = z.output<typeof HostNetworkMember>;

/**
 * Why the plan cannot be trusted now (models are not served meanwhile), as a code the window
 * words. `detail` is the document verifier's diagnosis (contracts' verifyEntitlementToken, in
 * English: it names keys and issuers); `advice` says what the person can do about it.
 */
export const HostTrustProblem = z.discriminatedUnion('code', [
  /** The clock reads earlier than a time Meshwork already saw on it. */
  z.object({ code: z.literal('clock_went_back') }),
  /** The api's document does not verify. */
  z.object({ code: z.literal('plan_unverifiable'), detail: z.string(), advice: z.enum(['check_clock', 'reinstall']).nullable() }),
]);
export type HostTrustProblem = z.output<typeof HostTrustProblem>;

/** Why models are not served now, as a code the window words; `since` is the date (YYYY-MM-DD) the plan expired. */
export const HostServingReason = z.discriminatedUnion('code', [
  z.object({ code: z.literal('signed_out') }),
  z.object({ code: z.literal('untrusted'), problem: HostTrustProblem }),
  z.object({ code: z.literal('awaiting_plan') }),
  z.object({ code: z.literal('plan_expired'), since: z.string() }),
]);
export type HostServingReason = z.output<typeof HostServingReason>;

/**
 * Why a LAN link to another device failed or ended. `detail` is the system's or the parser's
 * words (a socket error, a protocol violation); `seconds` how long the device waited.
 */
export const HostLinkFailure = z.discriminatedUnion('code', [
  /** The device could not be dialled at all. */
  z.object({ code: z.literal('unreachable'), detail: z.string() }),
  z.object({ code: z.literal('connection_failed'), detail: z.string() }),
  z.object({ code: z.literal('disconnected') }),
  z.object({ code: z.literal('stopped_answering') }),
  z.object({ code: z.literal('no_answer_within'), seconds: z.number() }),
  z.object({ code: z.literal('no_answer_in_time') }),
  z.object({ code: z.literal('closed') }),
  z.object({ code: z.literal('frame_too_large') }),
  z.object({ code: z.literal('broke_protocol'), detail: z.string() }),
  /** The device answered a request with an error of its own (its words), or with the wrong number of bytes. */
  z.object({ code: z.literal('device_error'), detail: z.string() }),
  z.object({ code: z.literal('wrong_size') }),
  /** The device at the host's address has another certificate. */
  z.object({ code: z.literal('not_the_host') }),
  z.object({ code: z.literal('not_welcomed') }),
]);
export type HostLinkFailure = z.output<typeof HostLinkFailure>;

/**
 * Why a network's host refuses a device (the LAN protocol's `refused` frame), as a code the
 * device words in its own language, with the values the words name. `detail` is the plan
 * verifier's own words (a signature or date problem).
 */
export const LanRefusal = z.discriminatedUnion('code', [
  z.strictObject({ code: z.literal('hosts_no_network') }),
  /** A connection that did not start with hello (or join). */
  z.strictObject({ code: z.literal('hello_first') }),
  z.strictObject({ code: z.literal('plan_unconfirmed'), detail: z.string().max(500) }),
  z.strictObject({ code: z.literal('other_account') }),
  z.strictObject({ code: z.literal('not_a_member') }),
  /** Meshwork has not yet listed the network in the host's signed document. */
  z.strictObject({ code: z.literal('awaiting_confirmation') }),
  z.strictObject({ code: z.literal('suspended') }),
  z.strictObject({ code: z.literal('code_overused') }),
  z.strictObject({ code: z.literal('code_invalid') }),
  z.strictObject({ code: z.literal('client_limit'), plan: z.string().min(1).max(100), max_clients: z.number().int().min(0) }),
]);
export type LanRefusal = z.output<typeof LanRefusal>;

/**
 * Why a device is no longer in a network it did not leave itself, as a code the device words in
 * its own language: its host's `removed` frame (the host's person removed it, the host stopped
 * hosting, the plan now admits fewer clients: `max_clients`), or its own signed document no
 * longer listing the network (`network_ended`: deleted, the device removed, or over the plan's
 * clients, at the api), whichever it hears first.
 */
export const LanRemoval = z.discriminatedUnion('code', [
  z.strictObject({ code: z.literal('removed_by_host') }),
  z.strictObject({ code: z.literal('host_stopped') }),
  z.strictObject({ code: z.literal('client_limit'), max_clients: z.number().int().min(0) }),
  z.strictObject({ code: z.literal('network_ended') }),
]);
export type LanRemoval = z.output<typeof LanRemoval>;

/**
 * Why the network does not run the model now, as a code the window words in its language, with
 * the values the words name.
 */
export const HostNetworkMessage = z.discriminatedUnion('code', [
  /** The host: Meshwork has not yet listed the network in this device's signed document. */
  z.object({ code: z.literal('awaiting_confirmation') }),
  z.object({ code: z.literal('suspended') }),
  z.object({ code: z.literal('not_serving'), reason: HostServingReason }),
  z.object({ code: z.literal('model_missing'), model: z.string() }),
  /**
   * The host: the devices online cannot hold the model together; `needed_bytes` more free memory
   * (another device, or memory freed on these) would let them.
   */
  z.object({ code: z.literal('memory_short'), model: z.string(), needed_bytes: z.number().int().min(0) }),
  /** A client: its host refused it on reconnecting. */
  z.object({ code: z.literal('host_refused'), reason: LanRefusal }),
  z.object({ code: z.literal('host_unreachable'), error: HostLinkFailure }),
  z.object({ code: z.literal('host_offline'), error: HostLinkFailure }),
]);
export type HostNetworkMessage = z.output<typeof HostNetworkMessage>;

/**
 * Why the runtime refused a command of the window, as a code the window words, with the values
 * the words name. `detail` is text from outside the runtime, passed on as it came: the api's
 * answer, a system error; `reason` the host's refusal over the LAN; `failure` is why the link to the host failed; `address` the host's, as address:port.
 */
export const HostRefusalReason = z.discriminatedUnion('code', [
  z.object({ code: z.literal('sign_in_first') }),
  z.object({ code: z.literal('sign_in_to_download') }),
  z.object({ code: z.literal('not_in_plan'), model: z.string() }),
  /** The model store could not do it (a name it cannot store, a disk error). */
  z.object({ code: z.literal('model_store_failed'), detail: z.string() }),
  z.object({ code: z.literal('already_in_network') }),
  z.object({ code: z.literal('awaiting_plan') }),
  z.object({ code: z.literal('only_host_issues_codes') }),
  z.object({ code: z.literal('only_host_removes') }),
  z.object({ code: z.literal('not_a_member') }),
  /** Joining: more than one device announces the network, and none is the verified host. */
  z.object({ code: z.literal('several_hosts_announce') }),
  /** Joining: Meshwork names another certificate as the network's host. */
  z.object({ code: z.literal('host_not_vouched') }),
  z.object({ code: z.literal('network_not_on_lan') }),
  z.object({ code: z.literal('code_for_another_network') }),
  z.object({ code: z.literal('api_refused'), detail: z.string() }),
  z.object({ code: z.literal('host_unreachable_at'), address: z.string(), failure: HostLinkFailure }),
  z.object({ code: z.literal('not_the_host') }),
  z.object({ code: z.literal('host_did_not_answer'), failure: HostLinkFailure }),
  z.object({ code: z.literal('host_refused'), reason: LanRefusal }),
  z.object({ code: z.literal('wrong_code') }),
  z.object({ code: z.literal('not_admitted') }),
]);
export type HostRefusalReason = z.output<typeof HostRefusalReason>;

/**
 * The control server's error answer to a command: the api's error format, whose `message` is
 * English for programs; a refusal adds its code and values beside it for the window to word.
 */
export type HostErrorBody = ErrorBody | (ErrorBody & HostRefusalReason);

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
  /** How many blocks the network's model has (its package's), null while this device has not read the package. */
  block_count: z.number().int().min(1).nullable(),
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
export const HostTrust = z.object({ source: z.enum(['release', 'first-sign-in']), problem: HostTrustProblem.nullable() });
export type HostTrust = z.output<typeof HostTrust>;

export const HostState = z.object({
  version: z.string(),
  account: HostAccount,
  connection: HostConnection,
  entitlements: HostEntitlements.nullable(),
  trust: HostTrust,
  /** Whether models may be served now, and if not, why (a code the window words). */
  serving: z.object({ allowed: z.boolean(), reason: HostServingReason.nullable() }),
  models: z.array(HostModel),
  /** The network this device hosts or belongs to, if any. */
  network: HostNetwork.nullable(),
  /** The network this device was last taken out of, and why; until it is in another (not kept across restarts). */
  left_network: z.object({ name: z.string(), reason: LanRemoval }).nullable(),
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
