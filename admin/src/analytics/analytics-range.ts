import { ANALYTICS_RANGES, type AnalyticsRange } from '@meshwork/contracts';

export { ANALYTICS_RANGES, type AnalyticsRange };

const DEFAULT_RANGE: AnalyticsRange = '30d';

/**
 * The range the address asks for (`?range=7d`), so a link shows the same period to whoever
 * opens it; 30 days when it names none or one the api does not know.
 */
export function rangeOfSearch(search: URLSearchParams): AnalyticsRange {
  const asked = search.get('range');
  return ANALYTICS_RANGES.find((range) => range === asked) ?? DEFAULT_RANGE;
}
