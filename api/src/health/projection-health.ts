import type { Pool } from 'pg';
import { type ConsumerStatus, consumerStatus } from '../platform/projections/consumer-status';
import { type ComponentHealth, probe } from '../platform/health/component-health';
import type { RelayStatus } from '../platform/messaging/relay-status.port';
import { INVOICES_FOLLOWER } from '../billing';
import { PLAN_LIMITS_FOLLOWER } from '../networks';
import { readModelNames } from '../read-models';
import { WEBHOOK_PLAN_FOLLOWER } from '../webhooks';

/**
 * Every log consumer this deployment runs: the read models, the networks' plan-limits
 * follower, billing's invoice follower, the webhooks' plan follower, and the Kafka relay when there is one.
 */
export function logConsumerNames(relay: RelayStatus): string[] {
  return [
    ...readModelNames,
    PLAN_LIMITS_FOLLOWER,
    INVOICES_FOLLOWER,
    WEBHOOK_PLAN_FOLLOWER,
    ...(relay.consumerName ? [relay.consumerName] : []),
  ];
}

/**
 * The projections component: up only while every projection (and the relay) applies events.
 * A failing, stalled or not running one makes it down, naming it and the event it is stuck
 * on. The error text is not here: this answer is public, and an error can quote an event's
 * data; staff read it at GET /admin-panel/system/projections/.
 */
export async function projectionsHealth(pool: Pool, names: readonly string[]): Promise<ComponentHealth> {
  let statuses: ConsumerStatus[] = [];
  const result = await probe(async () => {
    statuses = await consumerStatus(pool, names);
  });
  const troubled = statuses.filter((s) => s.state !== 'up');
  return {
    status: result.up && troubled.length === 0 ? 'up' : 'down',
    required: true,
    mode: 'postgres',
    detail: result.detail ?? (troubled.length > 0 ? troubled.map(describe).join('; ') : undefined),
    items: statuses.map((s) => ({
      name: s.name,
      status: s.state,
      running: s.running,
      position: s.position,
      positionsBehind: s.positionsBehind,
      millisecondsBehind: s.millisecondsBehind,
      ...(s.failure
        ? {
            failure: {
              position: s.failure.position,
              eventId: s.failure.eventId,
              eventType: s.failure.eventType,
              attempts: s.failure.attempts,
              firstFailedAt: s.failure.firstFailedAt.toISOString(),
              lastFailedAt: s.failure.lastFailedAt.toISOString(),
            },
          }
        : {}),
    })),
  };
}

function describe(s: ConsumerStatus): string {
  if (!s.failure) return `${s.name} not running, ${s.positionsBehind} behind`;
  return `${s.name} ${s.state} at position ${s.failure.position} (${s.failure.eventType}), ${s.failure.attempts} attempts`;
}
