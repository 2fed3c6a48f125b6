import {
  ENTITLEMENT_STREAM_EVENTS,
  ENTITLEMENT_STREAM_RETRY_MS,
  type EntitlementRevocation,
  type SignedEntitlements,
} from '@meshwork/contracts';

/** The text/event-stream frames of GET /devices/entitlements/stream (contracts' entitlement-stream). */
export const sse = {
  /** First on every stream: how long the host waits before reconnecting. */
  retry: `retry: ${ENTITLEMENT_STREAM_RETRY_MS}\n\n`,
  heartbeat: ': heartbeat\n\n',
  entitlements: (seq: number, signed: SignedEntitlements) =>
    `id: ${seq}\nevent: ${ENTITLEMENT_STREAM_EVENTS.entitlements}\ndata: ${JSON.stringify(signed)}\n\n`,
  revoked: (revocation: EntitlementRevocation) => `event: ${ENTITLEMENT_STREAM_EVENTS.revoked}\ndata: ${JSON.stringify(revocation)}\n\n`,
  expired: `event: ${ENTITLEMENT_STREAM_EVENTS.expired}\ndata: {}\n\n`,
};

/** Last-Event-ID as a seq, or null when absent or not a non-negative integer. */
export function parseLastEventId(header: string | undefined): number | null {
  return header !== undefined && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : null;
}
