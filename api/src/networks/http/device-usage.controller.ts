import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { UsageReportsAnswer, UsageReportsRequest } from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { DeviceClock } from '../application/devices/device-clock';
import { ReportDeviceUsage } from '../application/devices/report-device-usage.handler';

/** What a desktop host ran, reported by the device itself (device tokens only). */
@Tag('devices')
@Controller('devices/usage-reports')
@UseGuards(AuthGuard)
export class DeviceUsageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly clock: DeviceClock,
  ) {}

  @Post()
  @HttpCode(200)
  @Route({
    summary:
      "The calling device's cumulative figures per model and UTC hour (at most 500, hours within 90 days). Idempotent: a report replaces the one of the same model and hour, so a resend never counts twice.",
    response: UsageReportsAnswer,
    // 403: a web session is signed in but is no device.
    errors: [400, 403],
  })
  async report(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(UsageReportsRequest)) body: UsageReportsRequest,
  ): Promise<UsageReportsAnswer> {
    const recorded = await this.commands.execute<ReportDeviceUsage, number>(
      new ReportDeviceUsage(caller.userId, caller.deviceId, body.reports, this.clock.now()),
    );
    return { received: body.reports.length, recorded };
  }
}
