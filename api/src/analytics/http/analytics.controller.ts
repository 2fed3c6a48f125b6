import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AnalyticsQuery, AnalyticsReport } from '@meshwork/contracts';
import { StaffGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { AnalyticsReports } from '../application/analytics-report.query';

/** The console's Analytics screen: staff and auditors. */
@Tag('admin-analytics')
@Controller('admin-panel/analytics')
@UseGuards(StaffGuard)
export class AnalyticsController {
  constructor(private readonly reports: AnalyticsReports) {}

  @Get()
  @Route({
    summary: 'Users, subscriptions, revenue and model downloads per UTC day over the range, with growth against the period before.',
    response: AnalyticsReport,
  })
  report(@Query(new ZodPipe(AnalyticsQuery)) query: AnalyticsQuery): Promise<AnalyticsReport> {
    return this.reports.report(query.dateRange);
  }
}
