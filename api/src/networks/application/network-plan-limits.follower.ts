import { Injectable } from '@nestjs/common';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { BILLING_PROJECTION } from '../../billing';
import type { PlanEvent } from '../../billing/events';
import type { ModelEventType } from '../../catalog/events';
import { CATALOG_PROJECTION } from '../../catalog';
import { DomainError } from '../../platform/domain/errors';
import { awaitReadModels, CommandFollower, OwnCheckpoint, ReadModelsBehind } from '../../platform/projections/command-follower';
import type { LogConsumer } from '../../platform/projections/exclusive-follower';
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
  private readonly checkpoint: OwnCheckpoint;

  constructor(
    private readonly pool: Pool,
    private readonly commands: CommandBus,
    private readonly networks: NetworkQueries,
  ) {
    this.checkpoint = new OwnCheckpoint(pool, this.name);
  }

  prepare(): Promise<number> {
    return this.checkpoint.read();
  }

  async handle(checkpoint: number, events: RecordedEvent[]): Promise<number> {
    const work = events.map((event) => ({ event, work: workFor(event, this.networks) })).filter((w) => w.work !== null);
    if (work.length > 0) {
      // Limits and owners are read from the read models: they must include the change first.
      await awaitReadModels(
        this.pool,
        [BILLING_PROJECTION, CATALOG_PROJECTION, NETWORKS_PROJECTION],
        work[work.length - 1]!.event.position,
      );
      for (const { work: commands } of work) for (const command of await commands!()) await this.commands.execute(command);
    }
    return this.checkpoint.move(checkpoint, events[events.length - 1]!.position);
  }

  skip(checkpoint: number, event: RecordedEvent): Promise<number> {
    return this.checkpoint.move(checkpoint, event.position);
  }

  /** Lagging read models, an unavailable plan list or a lost connection heal by themselves. */
  isTransient(error: unknown): boolean {
    return (
      error instanceof ReadModelsBehind || (error instanceof DomainError && error.kind === 'unavailable') || isTransientPostgresError(error)
    );
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
export class NetworkPlanLimitsFollower extends CommandFollower {
  constructor(
    private readonly commands: CommandBus,
    private readonly networks: NetworkQueries,
  ) {
    super();
  }

  protected consumer(): LogConsumer {
    return new PlanLimitsConsumer(this.pool, this.commands, this.networks);
  }
}
