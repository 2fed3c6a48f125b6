import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { AnalyticsReports } from './application/analytics-report.query';
import { AnalyticsController } from './http/analytics.controller';

/** The console's analytics (its read model is built with the others, see read-models.ts). */
@Module({
  imports: [IdentityModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsReports],
})
export class AnalyticsModule {}
