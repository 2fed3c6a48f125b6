import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { requestRetry } from '../../platform/projections/consumer-failures';
import { consumerStatus } from '../../platform/projections/consumer-status';
import { READ_YOUR_WRITES_MS, waitForProjection } from '../../platform/projections/projection-waiter';
import { DECISIONS_STREAM_CATEGORY } from '../../platform/projections/skip-decisions';
import { DATABASE, type Database } from '../../platform/database/database';
import { AggregateRepository } from '../../platform/domain/aggregate-repository';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { logger } from '../../platform/logging/logger';
import {
  type ProjectionOperationsCommand,
  projectionOperationsDecider,
  type ProjectionOperationsState,
} from '../domain/projection-operations.decider';
import type { ProjectionOperationsEvent } from '../domain/projection-operations.events';

export class SkipProjectionEvent {
  constructor(
    readonly projection: string,
    readonly position: number,
    readonly reason: string,
    readonly at: Date,
  ) {}
}

/**
 * Staff decide that a projection moves past the event it cannot apply: ProjectionEventSkipped
 * on `projection-<name>`, with the staff member as its actor. Its runner skips exactly that
 * position when it next tries the event, which the retry flag makes at once.
 * Answers the decision's position in the log (0 when it was on record already), once the
 * runner has moved past the event (or after READ_YOUR_WRITES_MS, with a warning, when it has not).
 */
@CommandHandler(SkipProjectionEvent)
export class SkipProjectionEventHandler implements ICommandHandler<SkipProjectionEvent, number> {
  private readonly decisions: AggregateRepository<ProjectionOperationsCommand, ProjectionOperationsEvent, ProjectionOperationsState>;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) store: EventStore,
  ) {
    this.decisions = new AggregateRepository(store, projectionOperationsDecider, DECISIONS_STREAM_CATEGORY);
  }

  async execute({ projection, position, reason, at }: SkipProjectionEvent): Promise<number> {
    const [status] = await consumerStatus(this.database.pool, [projection]);
    const stuckAt = status?.failure ?? null;
    const { position: decided } = await this.decisions.execute(projection, {
      type: 'SkipEvent',
      projection,
      position,
      reason,
      stuckAt,
      at,
    });
    await requestRetry(this.database.pool, projection);
    // The runner looks for the decision within a second or so: answer once it is past the event.
    if (!(await waitForProjection(this.database.pool, projection, position, READ_YOUR_WRITES_MS))) {
      logger.warn({ projection, position }, 'the projection did not move past the skipped event in time; answering its state as it is');
    }
    return decided;
  }
}
