import type { AnalyticsReport } from '@meshwork/contracts';
import { type CsvCell, csvFileName, csvLines } from '../app/csv';

/** One section: its title, a header row, its rows. */
function section(title: string, header: string[], rows: CsvCell[][]): CsvCell[][] {
  return [[title], header, ...rows];
}

/**
 * The report as one CSV file of sections, separated by an empty line: the period, the summary,
 * then every series as the charts show it. The file is data for spreadsheets, so it reads the
 * same in every console language; money is in US dollars.
 */
export function analyticsCsv(report: AnalyticsReport): string {
  const { summary } = report;
  const sections = [
    section('Period', ['Range', 'From', 'To'], [[report.dateRange, report.from, report.to]]),
    section(
      'Summary',
      [
        'Total users',
        'New users',
        'Total revenue (USD)',
        'Revenue growth (%)',
        'Active subscriptions',
        'Subscription growth (%)',
        'Top model',
      ],
      [
        [
          summary.totalUsers,
          summary.newUsers,
          summary.totalRevenue,
          summary.revenueGrowth,
          summary.activeSubscriptions,
          summary.subscriptionGrowth,
          summary.topModel,
        ],
      ],
    ),
    section(
      'User growth',
      ['Date', 'Total users', 'New users'],
      report.userGrowth.map((day) => [day.date, day.totalUsers, day.newUsers]),
    ),
    section(
      'Revenue',
      ['Date', 'Revenue (USD)', 'Transactions'],
      report.revenueData.map((day) => [day.date, day.revenue, day.transactions]),
    ),
    section(
      'Subscriptions by plan',
      ['Plan', 'Active subscriptions', 'Conversion rate (%)', 'Churn rate (%)'],
      report.subscriptionMetrics.map((plan) => [plan.planName, plan.activeSubscriptions, plan.conversionRate, plan.churnRate]),
    ),
    section(
      'Model usage',
      ['Model', 'Requests', 'Tokens', 'Unique users'],
      report.modelUsage.map((model) => [model.modelName, model.usageCount, model.tokens, model.uniqueUsers]),
    ),
  ];
  return sections.map(csvLines).join('\r\n\r\n');
}

/** `analytics-30d-2025-01-31`: the range and today where the staff member is (downloadCSV adds `.csv`). */
export function analyticsCsvName(report: AnalyticsReport, today = new Date()): string {
  return csvFileName(`analytics-${report.dateRange}`, today);
}
