import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ConsoleErrorReport } from '@meshwork/contracts';
import { AggregateRepository } from '../../platform/domain/aggregate-repository';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { logger } from '../../platform/logging/logger';
import {
  type ConsoleErrorCommand,
  consoleErrorDecider,
  type ConsoleErrorEvent,
  type ConsoleErrorState,
} from '../domain/console-error.decider';

export class ReportConsoleError {
  constructor(
    readonly report: ConsoleErrorReport,
    readonly at: Date,
  ) {}
}

/** Records a console screen's crash in the log (the reporter is its actor) and in the api's log lines. */
@CommandHandler(ReportConsoleError)
export class ReportConsoleErrorHandler implements ICommandHandler<ReportConsoleError, void> {
  private readonly errors: AggregateRepository<ConsoleErrorCommand, ConsoleErrorEvent, ConsoleErrorState>;

  constructor(@Inject(EVENT_STORE) store: EventStore) {
    this.errors = new AggregateRepository(store, consoleErrorDecider, 'consoleerror');
  }

  async execute({ report, at }: ReportConsoleError): Promise<void> {
    const { error_id: errorId, screen, message, stack, url } = report;
    await this.errors.execute(errorId, { type: 'ReportConsoleError', at, errorId, screen, message, stack, url });
    logger.warn({ errorId, screen, message }, 'a console screen crashed');
  }
}
