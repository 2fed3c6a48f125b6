import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { projectionName, ProjectionStatus, SkipProjectionEventRequest } from '@meshwork/contracts';
import { StaffGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { ProjectionStatuses } from '../application/projection-statuses';
import { RetryProjection } from '../application/retry-projection.handler';
import { SkipProjectionEvent } from '../application/skip-projection-event.handler';

const nameParam = new ZodPipe(projectionName);

/** The console's System card: each projection's state, and Retry and Skip for a stuck one. */
@Tag('admin-panel')
@Controller('admin-panel/system/projections')
@UseGuards(StaffGuard)
export class SystemProjectionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly statuses: ProjectionStatuses,
  ) {}

  @Get()
  @Route({
    summary: 'Every projection and the Kafka relay: state, lag, and the event a failing one is stuck on, with its error.',
    response: z.array(ProjectionStatus),
  })
  list(): Promise<ProjectionStatus[]> {
    return this.statuses.list();
  }

  @Post(':name/retry')
  @HttpCode(200)
  @Route({
    summary: 'Try the failing event again now, with a fresh round of attempts (a fix may have shipped). No-op when not failing.',
    response: ProjectionStatus,
  })
  async retry(@Param('name', nameParam) name: string): Promise<ProjectionStatus> {
    this.statuses.known(name);
    await this.commands.execute(new RetryProjection(name));
    return this.statuses.one(name);
  }

  @Post(':name/skip')
  @HttpCode(200)
  @Route({
    summary:
      'Skip the event the projection is stuck on, for the record (ProjectionEventSkipped with the reason). 409 for any other position.',
    response: ProjectionStatus,
  })
  async skip(
    @Param('name', nameParam) name: string,
    @Body(new ZodPipe(SkipProjectionEventRequest)) body: z.output<typeof SkipProjectionEventRequest>,
  ): Promise<ProjectionStatus> {
    this.statuses.known(name);
    await this.commands.execute(new SkipProjectionEvent(name, body.position, body.reason, new Date()));
    return this.statuses.one(name);
  }
}
