import { USAGE_HISTORY_MAX_DAYS } from '@meshwork/contracts';

/** The window a plan shows when it names none: a week on Free, the longest on paid plans. */
const FREE_WINDOW_DAYS = 7;

/**
 * How many days of device usage a customer sees: the plan's `usage_history_days` ("Advanced
 * Analytics": Free 7, Pro and Enterprise 90), never more than the platform keeps. A plan
 * without the field yet (or unknown) falls back to its place: the free plan a week, others 90.
 */
export function usageWindowDays(plan: { planId: string; usageHistoryDays?: number | null } | undefined): number {
  const days = plan?.usageHistoryDays;
  if (typeof days === 'number' && Number.isInteger(days) && days > 0) return Math.min(days, USAGE_HISTORY_MAX_DAYS);
  return !plan || plan.planId === 'free' ? FREE_WINDOW_DAYS : USAGE_HISTORY_MAX_DAYS;
}
