import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { BILLING_PROJECTION } from '../../billing';
import type { PlanEvent } from '../../billing/events';
import type { ModelEventType } from '../../catalog/events';
import { CATALOG_PROJECTION } from '../../catalog';
import { DATABASE, type Database } from '../../platform/database/database';
import { DomainError } from '../../platform/domain/errors';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { logger } from '../../platform/logging/logger';
import { ExclusiveFollower, type FollowerOptions, type LogConsumer, NotOwnerError } from '../../platform/projections/exclusive-follower';
import { waitForProjection } from '../../platform/projections/projection-waiter';
import { isTransientPostgresError } from '../../platform/projections/retry-policy';
import type { PlanChange } from '../domain/network.events';
import { NETWORKS_PROJECTION } from '../projections/networks.entities';
import { ApplyPlanLimits } from './apply-plan-limits.handler';
import { ReleaseDevice } from './membership/release-device.handler';
import { NetworkQueries } from './network.query';

export const PLAN_LIMITS_FOLLOWER = 'networks_plan_limits';

const MODEL_EVENTS = new Set<string>([
  'ModelAccessChanged',
  'ModelDeactivated',
  'ModelReactivated',
  'ModelDeleted',
] satisfies ModelEventType[]);
const LIMIT_TERMS = ['maxNetworks', 'maxClientsPerNetwork'];

/** The read models were not yet at the event: try again (they follow within moments). */
class ReadModelsBehind extends Error {}

/**
 * How long a batch waits for the read models before it throws ReadModelsBehind and is retried.
 * Shorter than a command's read-your-writes wait: the retry says so out loud, and stopping
 * the follower waits for the batch in hand.
 */
const READ_MODELS_WAIT_MS = 5_000;

/** The commands an event calls for: one per customer a plan change may touch, or one per revoked device. */
type Work = () => Promise<ICommand[]>;

/**
 * The process manager between networks and the world around them: follows billing's, the
 * catalog's and the devices' events and sends ApplyPlanLimits to every customer a change may
 * touch, so downgrades, staff editing a plan and models leaving a plan reach networks as
 * commands; and ReleaseDevice for a revoked device, which frees its places as host and client.
 *
 * - A customer's entitlements changed (subscription, period end, Stripe, staff): that customer.
 * - A plan's network or client limit changed: every customer with networks (billing also
 *   sends its subscribers' EntitlementsChanged; the free plan's users have none).
 * - A model's access or status changed: the customers with a network on that model.
 *
 * At least once, with its own checkpoint moved after the commands of a batch succeeded; the
 * commands are idempotent (they decide from the limits as they are now), so a batch sent
 * again changes nothing. One api instance does the work (ExclusiveFollower's advisory lock).
 */
class PlanLimitsConsumer implements LogConsumer {
  readonly name = PLAN_LIMITS_FOLLOWER;

  constructor(
    private readonly pool: Pool,
    private readonly commands: CommandBus,
    private readonly networks: NetworkQueries,
  ) {}

  async prepare(): Promise<number> {
    await this.pool.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [this.name]);
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [
      this.name,
    ]);
    return Number(rows[0]!.position);
  }

  async handle(checkpoint: number, events: RecordedEvent[]): Promise<number> {
    const work = events.map((event) => ({ event, work: workFor(event, this.networks) })).filter((w) => w.work !== null);
    if (work.length > 0) {
      // Limits and owners are read from the read models: they must include the change first.
      const last = work[work.length - 1]!.event.position;
      const caughtUp = await Promise.all(
        [BILLING_PROJECTION, CATALOG_PROJECTION, NETWORKS_PROJECTION].map((name) =>
          waitForProjection(this.pool, name, last, READ_MODELS_WAIT_MS),
        ),
      );
      if (caughtUp.includes(false)) throw new ReadModelsBehind(`read models are not yet at position ${last}`);
      for (const { work: commands } of work) for (const command of await commands!()) await this.commands.execute(command);
    }
    return this.moveCheckpoint(checkpoint, events[events.length - 1]!.position);
  }

  skip(checkpoint: number, event: RecordedEvent): Promise<number> {
    return this.moveCheckpoint(checkpoint, event.position);
  }

  /** Lagging read models, an unavailable plan list or a lost connection heal by themselves. */
  isTransient(error: unknown): boolean {
    return (
      error instanceof ReadModelsBehind || (error instanceof DomainError && error.kind === 'unavailable') || isTransientPostgresError(error)
    );
  }

  private async moveCheckpoint(from: number, to: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      'UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1 AND position = $3',
      [this.name, to, from],
    );
    if (rowCount === 0) throw new NotOwnerError('plan-limits checkpoint moved under us: another follower is running');
    return to;
  }
}

const idOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/** What an event calls for, or null for one that changes no limit and revokes no device. */
function workFor(event: RecordedEvent, networks: NetworkQueries): Work | null {
  const apply =
    (source: PlanChange['source'], users: () => Promise<string[]>): Work =>
    async () =>
      (await users()).map((userId) => new ApplyPlanLimits(userId, { source, eventId: event.eventId }, event.occurredAt));
  if (event.streamId.startsWith('subscription-') && event.type === 'EntitlementsChanged')
    return apply('subscription', async () => [idOf(event.streamId)]);
  if (event.streamId.startsWith('plan-') && event.type === 'PlanUpdated') {
    const { changes } = (event as unknown as PlanEvent & { type: 'PlanUpdated' }).data;
    if (!LIMIT_TERMS.some((term) => term in changes)) return null;
    return apply('plan', () => networks.owners());
  }
  if (event.streamId.startsWith('model-') && MODEL_EVENTS.has(event.type))
    return apply('model', () => networks.owners(idOf(event.streamId)));
  if (event.streamId.startsWith('device-') && event.type === 'DeviceRevoked')
    return async () => [new ReleaseDevice(idOf(event.streamId), event.occurredAt)];
  return null;
}

/** Runs the plan-limits process manager in every api process; one at a time is active. */
@Injectable()
export class NetworkPlanLimitsFollower implements OnApplicationBootstrap, OnApplicationShutdown {
  private follower: ExclusiveFollower | null = null;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: CommandBus,
    private readonly networks: NetworkQueries,
  ) {}

  onApplicationBootstrap(): void {
    const options: FollowerOptions = { logger };
    const consumer = new PlanLimitsConsumer(this.database.pool, this.commands, this.networks);
    this.follower = new ExclusiveFollower(this.database.pool, this.store, consumer, options).start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower?.stop();
  }
}
