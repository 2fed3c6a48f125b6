import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { operationsCommandHandlers } from './application';
import { ProjectionStatuses } from './application/projection-statuses';
import { ConsoleErrorsController } from './http/console-errors.controller';
import { SystemProjectionsController } from './http/system-projections.controller';

/** Running the system: staff see each projection's state, and retry or skip a stuck one; console crashes are recorded. */
@Module({
  imports: [IdentityModule],
  controllers: [SystemProjectionsController, ConsoleErrorsController],
  providers: [ProjectionStatuses, ...operationsCommandHandlers],
})
export class OperationsModule {}
