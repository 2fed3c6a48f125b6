import { Controller, Get, Res } from '@nestjs/common';
import { OverallStatus, Ping, SystemStatusAnswer } from '@meshwork/contracts';
import { Route, Tag } from '../platform/http/openapi/route-contract';
import type { Response } from 'express';
import { HealthService, type SystemStatus } from './health.service';

@Tag('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Route({
    summary: 'Overall status: 200 when every required component is up, else 503.',
    response: OverallStatus,
    answers: { 503: OverallStatus },
  })
  async overall(@Res({ passthrough: true }) response: Response): Promise<Pick<SystemStatus, 'status' | 'checkedAt'>> {
    const { status, checkedAt } = await this.answer(response);
    return { status, checkedAt };
  }

  /** Liveness: the process answers; checks nothing else (load balancers, and the benchmark's baseline). */
  @Get('ping')
  @Route({ response: Ping })
  ping(): { ok: true } {
    return { ok: true };
  }

  @Get('system-status')
  @Route({
    summary: 'Every component by name: PostgreSQL, event store head, projection lag, Kafka, object storage, payments, mail.',
    response: SystemStatusAnswer,
    answers: { 503: SystemStatusAnswer },
  })
  async systemStatus(@Res({ passthrough: true }) response: Response): Promise<SystemStatus> {
    return this.answer(response);
  }

  private async answer(response: Response): Promise<SystemStatus> {
    const status = await this.health.systemStatus();
    response.status(status.status === 'ok' ? 200 : 503);
    response.setHeader('Cache-Control', 'no-store');
    return status;
  }
}
