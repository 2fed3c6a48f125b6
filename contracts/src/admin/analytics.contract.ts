import { z } from 'zod';

/**
 * The console's analytics (spec "Analytics", issue 15 §4): a period of 7, 30 or 90 days or a
 * year, ending today (UTC days), compared with the period of the same length before it.
 * Money is in US dollars, net of refunds. Plans are the paid ones: the free plan is where every
 * account without a subscription is, so its figures are the users'.
 */

export const ANALYTICS_RANGES = ['7d', '30d', '90d', '1y'] as const;
export const AnalyticsRange = z.enum(ANALYTICS_RANGES, { error: "Date range must be '7d', '30d', '90d' or '1y'" });
export type AnalyticsRange = z.output<typeof AnalyticsRange>;

/** How many days each range covers, today included. */
export const ANALYTICS_RANGE_DAYS: Record<AnalyticsRange, number> = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 };

export const AnalyticsQuery = z.object({ dateRange: AnalyticsRange.default('30d') }).strict();
export type AnalyticsQuery = z.output<typeof AnalyticsQuery>;

const day = z.iso.date().meta({ description: 'A UTC day, YYYY-MM-DD.' });
const percent = (description: string) => z.number().meta({ description: `${description}, in percent (one decimal).` });

export const AnalyticsReport = z
  .object({
    dateRange: AnalyticsRange,
    from: day.meta({ description: "The period's first day." }),
    to: day.meta({ description: "The period's last day (today)." }),
    userGrowth: z.array(
      z.object({
        date: day,
        totalUsers: z.number().int().meta({ description: 'Accounts at the end of the day (deleted ones no longer counted).' }),
        newUsers: z.number().int(),
      }),
    ),
    subscriptionMetrics: z.array(
      z.object({
        planName: z.string(),
        activeSubscriptions: z.number().int().meta({ description: 'Subscribers at the end of the period.' }),
        conversionRate: percent(
          'Accounts that took up this plan during the period, per account that existed in it (at its start or registered during it)',
        ),
        churnRate: percent(
          "Subscriptions to this plan that ended during the period, per subscription held at the period's start or begun in it",
        ),
      }),
    ),
    revenueData: z.array(
      z.object({
        date: day,
        revenue: z.number().meta({ description: 'Payments received that day less refunds given that day, in USD.' }),
        transactions: z.number().int().meta({ description: 'Payments received that day.' }),
      }),
    ),
    modelUsage: z.array(
      z.object({
        modelName: z.string(),
        usageCount: z
          .number()
          .int()
          .meta({ description: "Requests customers' devices ran on the model during the period (hosts' usage reports)." }),
        uniqueUsers: z.number().int().meta({ description: 'Customers whose devices ran it.' }),
        tokens: z.number().int().meta({ description: 'Prompt and completion tokens of those requests.' }),
      }),
    ),
    summary: z.object({
      totalUsers: z.number().int(),
      newUsers: z.number().int(),
      totalRevenue: z.number().meta({ description: "The period's revenue net of refunds, in USD." }),
      revenueGrowth: percent("The period's revenue against the previous period's"),
      activeSubscriptions: z.number().int().meta({ description: 'Paid subscriptions at the end of the period.' }),
      subscriptionGrowth: percent('Paid subscriptions at the end of the period against those at its start'),
      topModel: z.string().nullable().meta({ description: 'The most downloaded model of the period, if any was.' }),
    }),
  })
  .meta({ id: 'AnalyticsReport' });
export type AnalyticsReport = z.output<typeof AnalyticsReport>;
