import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ConsoleErrorReceipt, ConsoleErrorReport } from '@meshwork/contracts';
import { ConsoleUserGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { ReportConsoleError } from '../application/report-console-error.handler';

/** Where the console's error boundaries report a crashed screen; staff find it in the audit trail. */
@Tag('admin-panel')
@Controller('admin-panel/console-errors')
@UseGuards(ConsoleUserGuard)
export class ConsoleErrorsController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @Route({
    summary: 'Record a crash of a console screen (staff and auditors); reporting the same error id again adds nothing.',
    response: ConsoleErrorReceipt,
  })
  async report(@Body(new ZodPipe(ConsoleErrorReport)) report: ConsoleErrorReport): Promise<ConsoleErrorReceipt> {
    await this.commands.execute(new ReportConsoleError(report, new Date()));
    return { error_id: report.error_id };
  }
}
