import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { operationsCommandHandlers } from './application';
import { ProjectionStatuses } from './application/projection-statuses';
import { SystemProjectionsController } from './http/system-projections.controller';

/** Running the system: staff see each projection's state, and retry or skip a stuck one. */
@Module({
  imports: [IdentityModule],
  controllers: [SystemProjectionsController],
  providers: [ProjectionStatuses, ...operationsCommandHandlers],
})
export class OperationsModule {}
