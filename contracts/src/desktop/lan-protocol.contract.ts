import { z } from 'zod';
import { UUID_PATTERN } from '../common/fields';
import { MAX_ENTITLEMENT_TOKEN_LENGTH } from '../entitlements/entitlement-document.contract';
import { HostNetworkMember, LanRefusal, LanRemoval, LanShareReport } from './host-state.contract';

/**
 * What the devices of a network say to each other on the LAN (issue 14, section 4). Every
 * message a peer sends is checked against these schemas before anything reads it: a LAN peer is
 * outside input. Frames travel over TLS between pinned certificates; each is a JSON header and
 * an optional binary payload (token ids as int64, hidden states as float32, little-endian).
 */

/** The UDP multicast group and port hosts announce their networks on. */
export const LAN_DISCOVERY_GROUP = '239.255.77.77';
export const LAN_DISCOVERY_PORT = 8432;
/** The TLS port a host accepts its network's devices on, unless configured. */
export const LAN_NETWORK_PORT = 8433;
/** How often a host announces itself, and how long a silent announcement stays listed. */
export const LAN_ANNOUNCE_INTERVAL_MS = 1000;
export const LAN_ANNOUNCE_TTL_MS = 5000;
export const LAN_MAX_HEADER_BYTES = 256 * 1024;
export const LAN_MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;
/** The most bytes of a package file one `fetch` asks for: small enough that chat frames pass between them. */
export const LAN_FETCH_MAX_BYTES = 1024 * 1024;

const uuid = z.string().regex(UUID_PATTERN);
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const hex32 = z.string().regex(/^[0-9a-f]{32}$/);
const name = z.string().min(1).max(200);
const id = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31);

/**
 * A host's announcement, signed with its TLS key (ECDSA P-256, SHA-256, over `signed` below):
 * whoever lists it knows the holder of that certificate sent it, from one of `addresses`. Only a
 * certificate this device already trusts for the network makes it verified; joining proves the
 * rest (the code's key exchange, bound to the certificate). `owner` is a hash of the customer's id.
 */
export const LanAnnouncement = z.strictObject({
  meshwork: z.literal(2),
  owner: hex64,
  network: z.strictObject({ id: uuid, name, model: name, host_name: name }),
  /** The host's IPv4 addresses: a copy heard from another address is not this host's. */
  addresses: z
    .array(z.string().regex(/^\d{1,3}(\.\d{1,3}){3}$/))
    .min(1)
    .max(16),
  port: z.number().int().min(1).max(65_535),
  /** The host's TLS certificate (DER, base64): its SHA-256 is what members pin. */
  certificate: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .max(2048),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .max(200),
});
export type LanAnnouncement = z.output<typeof LanAnnouncement>;

const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const modelRef = z.strictObject({ name, version: z.string().min(1).max(40) });
/** A plain file name of a package (never a path). */
const packageFile = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/);
/** What a device tells its host about itself: what it can hold and how fast it is. */
export const LanNodeReport = z.strictObject({
  /**
   * Memory this device can give the model: the system's free memory, or its memory limit's (a
   * cgroup) where that is lower, plus what the blocks it holds now take (a new plan releases them).
   */
  free_memory_bytes: bytes,
  speed: z.number().min(0).max(1e12),
  /** Models installed whole that this device may run. */
  models: z.array(modelRef).max(1000),
  /** Models its plan lets it run, installed or not: it fetches its share of one when the host gives it blocks. */
  entitled: z.array(modelRef).max(1000).default([]),
  /** Its share of the network's model, when it holds one. */
  share: LanShareReport.nullable().default(null),
});
export type LanNodeReport = z.output<typeof LanNodeReport>;

const token = z.string().min(1).max(MAX_ENTITLEMENT_TOKEN_LENGTH);

/** A device to its host. */
export const LanToHost = z.discriminatedUnion('type', [
  /**
   * First contact: the device's share of the code's key exchange (join-pake.ts) for session
   * `sid`. Nothing else until the host has proved it knows the code.
   */
  z.strictObject({ type: z.literal('join'), device_id: uuid, device_name: name, sid: hex32, share: hex64 }),
  /** The device's proof that it holds the session key, then its signed entitlements (same customer). */
  z.strictObject({ type: z.literal('confirm'), tag: hex64, entitlements: token, node: LanNodeReport }),
  /** A member coming back: the host welcomes it only over the TLS certificate it pinned at its join. */
  z.strictObject({ type: z.literal('hello'), device_id: uuid, entitlements: token, node: LanNodeReport }),
  z.strictObject({ type: z.literal('status'), node: LanNodeReport }),
  z.strictObject({ type: z.literal('leave') }),
  /**
   * `length` bytes from `offset` of one file of the network's model package (`manifest.json`:
   * the catalog's manifest, whose SHA-256 the signed document carries): the host answers a
   * `reply` carrying them, or an error. The member checks every file it assembles.
   */
  z.strictObject({
    type: z.literal('fetch'),
    id,
    model: name,
    version: z.string().min(1).max(40),
    file: packageFile,
    offset: bytes,
    length: z.number().int().min(1).max(LAN_FETCH_MAX_BYTES),
  }),
  /**
   * The answer to a host's request; `error` says why it failed: `cache_missing` (the host runs
   * the conversation again), `refused` (this device may not run the model now), `failed`.
   */
  z.strictObject({
    type: z.literal('reply'),
    id,
    error: z.strictObject({ kind: z.enum(['cache_missing', 'refused', 'failed']), message: z.string().max(2000) }).nullable(),
  }),
  z.strictObject({ type: z.literal('pong') }),
]);
export type LanToHost = z.output<typeof LanToHost>;

export const LanNetworkInfo = z.strictObject({ id: uuid, name, model: name });
export type LanNetworkInfo = z.output<typeof LanNetworkInfo>;

/** A host to a device. */
export const LanToMember = z.discriminatedUnion('type', [
  /** The host's share of the key exchange and its proof that it holds the session key (over `network`). */
  z.strictObject({ type: z.literal('exchange'), network: LanNetworkInfo, share: hex64, tag: hex64 }),
  z.strictObject({ type: z.literal('admitted'), network: LanNetworkInfo }),
  z.strictObject({ type: z.literal('welcome'), network: LanNetworkInfo }),
  z.strictObject({ type: z.literal('refused'), reason: LanRefusal }),
  /** Load these blocks of the model (releasing others). */
  z.strictObject({
    type: z.literal('load'),
    id,
    model: name,
    version: z.string().min(1).max(40),
    blocks: z.array(z.number().int().min(0).max(255)).max(256),
  }),
  /**
   * Run `tokens` positions of sequence `seq` through blocks [first_block, end_block), after the
   * first `position` positions the device holds for it (more are forgotten; fewer is an error).
   */
  z.strictObject({
    type: z.literal('forward'),
    id,
    seq: id,
    position: z.number().int().min(0).max(1_000_000),
    tokens: z.number().int().min(1).max(4096),
    first_block: z.number().int().min(0).max(255),
    end_block: z.number().int().min(1).max(256),
  }),
  z.strictObject({ type: z.literal('release'), seq: id }),
  z.strictObject({ type: z.literal('members'), members: z.array(HostNetworkMember).max(1000) }),
  z.strictObject({ type: z.literal('removed'), reason: LanRemoval }),
  /**
   * The answer to a member's `fetch`, the bytes as payload; `error`: `refused` (the plan no
   * longer allows the model, or it is not the network's), `missing` (the host does not have the
   * file: the member fetches it from Meshwork), `failed`.
   */
  z.strictObject({
    type: z.literal('reply'),
    id,
    error: z.strictObject({ kind: z.enum(['refused', 'missing', 'failed']), message: z.string().max(2000) }).nullable(),
  }),
  z.strictObject({ type: z.literal('ping') }),
]);
export type LanToMember = z.output<typeof LanToMember>;
