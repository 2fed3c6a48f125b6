import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { requestRetry } from '../../platform/projections/consumer-failures';
import { DATABASE, type Database } from '../../platform/database/database';
import { logger } from '../../platform/logging/logger';

export class RetryProjection {
  constructor(readonly projection: string) {}
}

/**
 * Staff ask a failing or stalled projection to try its event again now, with a fresh round
 * of attempts: a flag in the database that its runner, in whichever process, looks at every
 * second. Not an event: it changes nothing but how soon the next attempt comes (the log
 * and the audit trail record skips, which do change what a read model holds).
 * Answers whether there was a failure to retry.
 */
@CommandHandler(RetryProjection)
export class RetryProjectionHandler implements ICommandHandler<RetryProjection, boolean> {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async execute({ projection }: RetryProjection): Promise<boolean> {
    const requested = await requestRetry(this.database.pool, projection);
    if (requested) logger.info({ projection }, 'retry of a failing projection requested');
    return requested;
  }
}
