import { Body, Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  type ProjectionStatus,
  projectionName,
  SkipProjectionEventRequest,
} from '../../../../contracts/src/operations/operations.contract';
import { waitForProjection } from '../../../../projections/src/runner/projection-waiter';
import { StaffGuard } from '../../identity/http/auth.guard';
import { DATABASE, type Database } from '../../platform/database/database';
import { ZodPipe } from '../../platform/http/validation';
import { ProjectionStatuses } from '../application/projection-statuses';
import { RetryProjection } from '../application/retry-projection.handler';
import { SkipProjectionEvent } from '../application/skip-projection-event.handler';

const nameParam = new ZodPipe(projectionName);

/** The console's System card: each projection's state, and Retry and Skip for a stuck one. */
@ApiTags('admin-panel')
@ApiBearerAuth()
@Controller('admin-panel/system/projections')
@UseGuards(StaffGuard)
export class SystemProjectionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly statuses: ProjectionStatuses,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Every projection and the Kafka relay: state, lag, and the event a failing one is stuck on, with its error.' })
  list(): Promise<ProjectionStatus[]> {
    return this.statuses.list();
  }

  @Post(':name/retry')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Try the failing event again now, with a fresh round of attempts (a fix may have shipped). No-op when not failing.',
  })
  async retry(@Param('name', nameParam) name: string): Promise<ProjectionStatus> {
    this.statuses.known(name);
    await this.commands.execute(new RetryProjection(name));
    return this.statuses.one(name);
  }

  @Post(':name/skip')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Skip the event the projection is stuck on, for the record (ProjectionEventSkipped with the reason). 409 for any other position.',
  })
  async skip(
    @Param('name', nameParam) name: string,
    @Body(new ZodPipe(SkipProjectionEventRequest)) body: z.output<typeof SkipProjectionEventRequest>,
  ): Promise<ProjectionStatus> {
    this.statuses.known(name);
    await this.commands.execute(new SkipProjectionEvent(name, body.position, body.reason, new Date()));
    // The runner looks for the decision within a second or so: answer with it past the event.
    await waitForProjection(this.database.pool, name, body.position, 5_000);
    return this.statuses.one(name);
  }
}
