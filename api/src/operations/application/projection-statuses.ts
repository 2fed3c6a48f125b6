import { Inject, Injectable } from '@nestjs/common';
import type { ProjectionStatus } from '@meshwork/contracts';
import { type ConsumerStatus, consumerStatus } from '../../platform/projections/consumer-status';
import { logConsumerNames } from '../../health';
import { DATABASE, type Database } from '../../platform/database/database';
import { notFound } from '../../platform/domain/errors';
import { RELAY_STATUS, type RelayStatus } from '../../platform/messaging/relay-status.port';

/** How each projection and the relay are doing, for staff: health's view plus the error text. */
@Injectable()
export class ProjectionStatuses {
  readonly names: string[];

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(RELAY_STATUS) relay: RelayStatus,
  ) {
    this.names = logConsumerNames(relay);
  }

  async list(): Promise<ProjectionStatus[]> {
    return (await consumerStatus(this.database.pool, this.names)).map(toProjectionStatus);
  }

  /** @throws 404 for a name this deployment does not run. */
  async one(name: string): Promise<ProjectionStatus> {
    this.known(name);
    return toProjectionStatus((await consumerStatus(this.database.pool, [name]))[0]!);
  }

  /** @throws 404 for a name this deployment does not run. */
  known(name: string): void {
    if (!this.names.includes(name)) throw notFound();
  }
}

function toProjectionStatus(s: ConsumerStatus): ProjectionStatus {
  const { name, state, running, position, positionsBehind, millisecondsBehind, failure } = s;
  return {
    name,
    state,
    running,
    position,
    positionsBehind,
    millisecondsBehind,
    failure: failure && {
      position: failure.position,
      eventId: failure.eventId,
      eventType: failure.eventType,
      attempts: failure.attempts,
      error: failure.error,
      firstFailedAt: failure.firstFailedAt.toISOString(),
      lastFailedAt: failure.lastFailedAt.toISOString(),
    },
  };
}
