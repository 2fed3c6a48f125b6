import { Inject, Injectable } from '@nestjs/common';
import { ANALYTICS_RANGE_DAYS, type AnalyticsRange, type AnalyticsReport } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../platform/database/database';
import { readModelSchema } from '../../platform/projections/projection';
import { ANALYTICS_PROJECTION } from '../projections/analytics.entities';

const SCHEMA = readModelSchema(ANALYTICS_PROJECTION);
const DAY_MS = 86_400_000;

/** A UTC day `days` after (or before) `day`, both YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included. */
function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** A share in percent with one decimal; 0 of nothing is 0. */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

/** Change against a base in percent (one decimal); from nothing to something is 100 %, as the dashboard counts it. */
const growth = (now: number, before: number) =>
  before === 0 ? (now > 0 ? 100 : 0) : Math.round(((now - before) / Math.abs(before)) * 1000) / 10;

const dollars = (cents: number) => Math.round(cents) / 100;

/**
 * The console's analytics report (spec "Analytics"), read from the analytics read model's
 * daily buckets: a period ending today, and the period of the same length before it for the
 * growth figures. Four small queries, each bounded by days, plans or models, never by events.
 */
@Injectable()
export class AnalyticsReports {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async report(range: AnalyticsRange, today = new Date().toISOString().slice(0, 10)): Promise<AnalyticsReport> {
    const length = ANALYTICS_RANGE_DAYS[range];
    const from = addDays(today, 1 - length);
    const previousFrom = addDays(from, -length);
    const pool = this.database.pool;
    // Raw SQL: per-day sums over the period, a measured hot path (bench:audit times this report against plain SQL).
    const [users, revenue, plans, models] = await Promise.all([
      pool.query<{ day: string | null; registered: number; deleted: number }>(
        // The first row sums everything before the period; the others are the period's days.
        `SELECT NULL AS day, coalesce(sum(registered), 0)::int AS registered, coalesce(sum(deleted), 0)::int AS deleted
           FROM ${SCHEMA}.user_days WHERE day < $1::date
         UNION ALL
         SELECT day::text, registered, deleted FROM ${SCHEMA}.user_days WHERE day BETWEEN $1::date AND $2::date`,
        [from, today],
      ),
      pool.query<{ day: string | null; net_cents: string; transactions: number }>(
        `SELECT NULL AS day, coalesce(sum(received_cents - refunded_cents), 0) AS net_cents, 0 AS transactions
           FROM ${SCHEMA}.revenue_days WHERE day >= $1::date AND day < $2::date
         UNION ALL
         SELECT day::text, received_cents - refunded_cents, transactions FROM ${SCHEMA}.revenue_days WHERE day BETWEEN $2::date AND $3::date`,
        [previousFrom, from, today],
      ),
      pool.query<{ plan_id: string; name: string; at_start: number; at_end: number; gained: number; ended: number }>(
        `SELECT plan_id, coalesce(p.name, plan_id) AS name,
                coalesce(f.at_start, 0) AS at_start, coalesce(f.at_end, 0) AS at_end, coalesce(f.gained, 0) AS gained, coalesce(f.ended, 0) AS ended
           FROM ${SCHEMA}.plans p
           FULL JOIN (SELECT plan_id,
                             (sum(gained - lost) FILTER (WHERE day < $1::date))::int AS at_start,
                             (sum(gained - lost) FILTER (WHERE day <= $2::date))::int AS at_end,
                             (sum(gained) FILTER (WHERE day BETWEEN $1::date AND $2::date))::int AS gained,
                             (sum(ended) FILTER (WHERE day BETWEEN $1::date AND $2::date))::int AS ended
                        FROM ${SCHEMA}.plan_days GROUP BY plan_id) f USING (plan_id)
          WHERE plan_id <> 'free' AND (NOT coalesce(p.archived, false) OR f.at_end > 0 OR f.gained > 0 OR f.ended > 0)
          ORDER BY at_end DESC, name`,
        [from, today],
      ),
      pool.query<{ name: string; usage: number; users: number; tokens: string }>(
        // What customers' devices ran (hosts' usage reports), by the catalog's display name when a model has it.
        // Per model and user first, then per model: a hash aggregate, where count(DISTINCT) would sort a year of rows.
        `SELECT coalesce(m.name, d.model) AS name, sum(d.requests)::int AS usage, count(*)::int AS users, sum(d.tokens) AS tokens
           FROM (SELECT model, user_id, sum(requests) AS requests, sum(tokens) AS tokens FROM ${SCHEMA}.usage_days
                  WHERE day BETWEEN $1::date AND $2::date GROUP BY model, user_id) d
           LEFT JOIN LATERAL (SELECT name FROM ${SCHEMA}.models WHERE model_name = d.model ORDER BY model_id LIMIT 1) m ON true
          GROUP BY d.model, m.name ORDER BY usage DESC, name`,
        [from, today],
      ),
    ]);

    const [usersBefore, ...userDays] = users.rows;
    const accountsAtStart = usersBefore!.registered - usersBefore!.deleted;
    const userRows = new Map(userDays.map((row) => [row.day!, row]));
    let accounts = accountsAtStart;
    const userGrowth = daysFrom(from, today).map((date) => {
      const row = userRows.get(date);
      accounts += (row?.registered ?? 0) - (row?.deleted ?? 0);
      return { date, totalUsers: accounts, newUsers: row?.registered ?? 0 };
    });
    const newUsers = userGrowth.reduce((sum, day) => sum + day.newUsers, 0);

    const [previousRevenue, ...revenueDays] = revenue.rows;
    const revenueRows = new Map(revenueDays.map((row) => [row.day!, row]));
    const revenueData = daysFrom(from, today).map((date) => {
      const row = revenueRows.get(date);
      return { date, revenue: dollars(Number(row?.net_cents ?? 0)), transactions: row?.transactions ?? 0 };
    });
    const revenueCents = revenueDays.reduce((sum, row) => sum + Number(row.net_cents), 0);

    // Accounts that could take up a plan in the period: those there at its start and those who joined.
    const accountsInPeriod = accountsAtStart + newUsers;
    const subscriptionMetrics = plans.rows.map((plan) => ({
      planName: plan.name,
      activeSubscriptions: plan.at_end,
      conversionRate: percent(plan.gained, accountsInPeriod),
      churnRate: percent(plan.ended, plan.at_start + plan.gained),
    }));
    const subscribersAtStart = plans.rows.reduce((sum, plan) => sum + plan.at_start, 0);
    const activeSubscriptions = plans.rows.reduce((sum, plan) => sum + plan.at_end, 0);

    return {
      dateRange: range,
      from,
      to: today,
      userGrowth,
      subscriptionMetrics,
      revenueData,
      modelUsage: models.rows.map((model) => ({
        modelName: model.name,
        usageCount: model.usage,
        uniqueUsers: model.users,
        tokens: Number(model.tokens),
      })),
      summary: {
        totalUsers: accounts,
        newUsers,
        totalRevenue: dollars(revenueCents),
        revenueGrowth: growth(revenueCents, Number(previousRevenue!.net_cents)),
        activeSubscriptions,
        subscriptionGrowth: growth(activeSubscriptions, subscribersAtStart),
        topModel: models.rows[0]?.name ?? null,
      },
    };
  }
}
