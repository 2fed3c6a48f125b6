import { z } from 'zod';

/**
 * GET /devices/entitlements/stream (issue 12, section 3): server-sent events for a signed-in
 * device. Each `entitlements` event's data is SignedEntitlements' JSON ({"token": ...}) and its
 * id the document's `seq`, so a host that reconnects with Last-Event-ID gets the current
 * document only when it is newer than the one it holds. `revoked` comes once, just before the
 * server closes the stream of a revoked device. `expired` comes once, just before the server
 * closes a stream whose access token has expired (a stream lives no longer than the token that
 * opened it): the host reconnects at once, with a fresh token. Between events a comment line
 * (`: heartbeat`) keeps proxies and the host's idle timer from closing a quiet stream.
 */
export const ENTITLEMENT_STREAM_EVENTS = { entitlements: 'entitlements', revoked: 'revoked', expired: 'expired' } as const;

export const ENTITLEMENT_STREAM_HEARTBEAT_SECONDS = 15;

/** `retry:` the server sends first: how long a host waits before reconnecting after a drop. */
export const ENTITLEMENT_STREAM_RETRY_MS = 3_000;

/** The `revoked` event's data. */
export const EntitlementRevocation = z.object({ reason: z.literal('device_revoked'), revoked_at: z.string() });
export type EntitlementRevocation = z.output<typeof EntitlementRevocation>;
