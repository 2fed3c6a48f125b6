import { z } from 'zod';
import { text, uuid } from '../common/fields';
import { timestamp } from '../http/http.contract';
import { formatUserCode, normalizeUserCode } from './devices.contract';

/**
 * Network membership (issue 12, section 2): one host device, and client devices of the same
 * customer that join with the code the host shows. The code has the user code's alphabet and
 * shape (XXXX-XXXX, no vowels, no look-alikes), so it is easy to read out across a room.
 */

/** How long a join code admits clients; any number of the customer's devices may use it until then. */
export const JOIN_CODE_LIFETIME_SECONDS = 15 * 60;

export const normalizeJoinCode = normalizeUserCode;
export const formatJoinCode = formatUserCode;

/** A TLS certificate's SHA-256 (of its DER), as 64 lowercase hex characters: what LAN peers pin. */
export const CERTIFICATE_SHA256_PATTERN = /^[0-9a-f]{64}$/;

/**
 * POST /networks/{id}/host/: the customer's active device that hosts the network. The host
 * device itself (from its own session) also sends its LAN certificate's fingerprint: the api
 * then names it in every document of the account, so a member that never joined can tell
 * the real host's announcements from a copy.
 */
export const AssignHostRequest = z.object({
  device_id: uuid('Device'),
  certificate_sha256: z
    .string({ error: 'Certificate fingerprint must be text' })
    .regex(CERTIFICATE_SHA256_PATTERN, 'Certificate fingerprint must be 64 lowercase hexadecimal characters (a SHA-256)')
    .optional(),
});
export type AssignHostRequest = z.input<typeof AssignHostRequest>;

/** POST /networks/join/ (from the joining device's own session): the code its host shows. */
export const JoinNetworkRequest = z.object({
  code: text('Join code', { max: 20, requiredMessage: 'Enter the join code the host shows' }).refine(
    (typed) => normalizeJoinCode(typed) !== null,
    'This join code is invalid or has expired.',
  ),
});
export type JoinNetworkRequest = z.input<typeof JoinNetworkRequest>;

/** POST /networks/{id}/join-code/: a fresh code (it replaces the one before), shown as XXXX-XXXX. */
export const JoinCode = z.object({ code: z.string(), expires_at: timestamp }).meta({ id: 'JoinCode' });
export type JoinCode = z.output<typeof JoinCode>;
