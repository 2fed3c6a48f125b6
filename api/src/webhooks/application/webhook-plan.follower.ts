import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { BILLING_PROJECTION } from '../../billing';
import type { PlanEvent, SubscriptionEvent } from '../../billing/events';
import type { UserEventType } from '../../identity/events';
import { DomainError } from '../../platform/domain/errors';
import { logger } from '../../platform/logging/logger';
import { awaitReadModels, CommandFollower, OwnCheckpoint, ReadModelsBehind } from '../../platform/projections/command-follower';
import type { LogConsumer } from '../../platform/projections/exclusive-follower';
import { isTransientPostgresError } from '../../platform/projections/retry-policy';
import { WEBHOOKS_PROJECTION } from '../projections/webhooks.entities';
import { DisableWebhookEndpoint } from './endpoint-commands.handler';
import { WebhookQueries } from './webhooks.query';
import { WebhooksContext } from './webhooks-context';

export const WEBHOOK_PLAN_FOLLOWER = 'webhooks_plan';

const ENTITLEMENTS_CHANGED = 'EntitlementsChanged' satisfies SubscriptionEvent['type'];
const PLAN_UPDATED = 'PlanUpdated' satisfies PlanEvent['type'];
const USER_DELETED = 'UserDeleted' satisfies UserEventType;
/** The plan terms that decide webhooks: the field, and the tier for plans stored without it. */
const WEBHOOK_TERMS = ['webhooks', 'tier'];

const idOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/** Whom a batch's events may have taken webhooks from: some users, everyone (a plan's terms changed), and the deleted. */
function affected(events: RecordedEvent[]): { users: Set<string>; everyone: boolean; deleted: Set<string>; last: number } {
  const found = { users: new Set<string>(), everyone: false, deleted: new Set<string>(), last: 0 };
  for (const event of events) {
    if (event.type === ENTITLEMENTS_CHANGED && event.streamId.startsWith('subscription-')) found.users.add(idOf(event.streamId));
    else if (event.type === USER_DELETED && event.streamId.startsWith('user-')) found.deleted.add(idOf(event.streamId));
    else if (event.type === PLAN_UPDATED && event.streamId.startsWith('plan-')) {
      const { changes } = (event as unknown as PlanEvent & { type: 'PlanUpdated' }).data;
      if (!WEBHOOK_TERMS.some((term) => term in changes)) continue;
      found.everyone = true;
    } else continue;
    found.last = event.position;
  }
  return found;
}

/**
 * Switches off, at once, the endpoints of customers whose plan no longer includes webhooks:
 * a downgrade or expiry taking effect, an account deleted (billing ends its subscription,
 * and the user's own UserDeleted), staff taking webhooks out of a plan. Each endpoint gets a
 * WebhookEndpointDisabled (reason `plan`, actor the system); re-enabling is refused while the
 * plan lacks webhooks (UpdateWebhookEndpoint's plan check).
 *
 * A process manager like networks' plan-limits follower: its own checkpoint, moved after a
 * batch's commands succeeded; the commands decide from the plans as they are now and disabling
 * a disabled endpoint changes nothing, so a batch sent again is harmless.
 */
class WebhookPlanConsumer implements LogConsumer {
  readonly name = WEBHOOK_PLAN_FOLLOWER;
  private readonly checkpoint: OwnCheckpoint;

  constructor(
    private readonly pool: Pool,
    private readonly commands: CommandBus,
    private readonly context: WebhooksContext,
    private readonly queries: WebhookQueries,
  ) {
    this.checkpoint = new OwnCheckpoint(pool, this.name);
  }

  prepare(): Promise<number> {
    return this.checkpoint.read();
  }

  async handle(checkpoint: number, events: RecordedEvent[]): Promise<number> {
    const found = affected(events);
    if (found.last > 0) await this.disableWhereLost(found, events[events.length - 1]!.occurredAt);
    return this.checkpoint.move(checkpoint, events[events.length - 1]!.position);
  }

  /** Disables the enabled endpoints of those found whose plan has no webhooks now (or who are deleted). */
  private async disableWhereLost({ users, everyone, deleted, last }: ReturnType<typeof affected>, at: Date): Promise<void> {
    // Plans come from billing's read model and endpoints from ours: both must include the change.
    await awaitReadModels(this.pool, [BILLING_PROJECTION, WEBHOOKS_PROJECTION], last);
    const endpoints = await this.queries.enabledEndpoints(everyone ? null : [...users, ...deleted]);
    if (endpoints.length === 0) return;
    const allowed = await this.context.plansAllowing([...new Set(endpoints.map((e) => e.user_id))]);
    for (const endpoint of endpoints) {
      if (allowed.has(endpoint.user_id) && !deleted.has(endpoint.user_id)) continue;
      // Deleted since the read model listed it: nothing left to switch off.
      const stopped = await this.commands
        .execute<DisableWebhookEndpoint, boolean>(new DisableWebhookEndpoint(endpoint.id, 'plan', at))
        .catch((error: unknown) => (error instanceof DomainError && error.kind === 'not_found' ? false : Promise.reject(error)));
      if (stopped) logger.info({ endpoint: endpoint.id }, 'webhook endpoint disabled: the plan has no webhooks');
    }
  }

  skip(checkpoint: number, event: RecordedEvent): Promise<number> {
    return this.checkpoint.move(checkpoint, event.position);
  }

  isTransient(error: unknown): boolean {
    return (
      error instanceof ReadModelsBehind || (error instanceof DomainError && error.kind === 'unavailable') || isTransientPostgresError(error)
    );
  }
}

/** Runs the webhook plan follower in every api process; one at a time is active. */
@Injectable()
export class WebhookPlanFollower extends CommandFollower {
  constructor(
    private readonly commands: CommandBus,
    private readonly context: WebhooksContext,
    private readonly queries: WebhookQueries,
  ) {
    super();
  }

  protected consumer(): LogConsumer {
    return new WebhookPlanConsumer(this.pool, this.commands, this.context, this.queries);
  }
}
