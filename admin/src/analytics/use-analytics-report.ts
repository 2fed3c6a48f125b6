import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../app/data-provider';
import { useLoadFailureToast } from '../layout/load-failure';
import { analyticsKey } from './analytics-api';
import type { AnalyticsRange } from './analytics-range';

/** A range's report; a failure is toasted once the query gives up (after its retries), not on every attempt. */
export function useAnalyticsReport(range: AnalyticsRange) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const onLoadFailure = useLoadFailureToast('resources.analytics.notifications.load_failed');
  const query = useQuery({ queryKey: analyticsKey(range), queryFn: () => dataProvider.getAnalytics(range) });
  const { error } = query;
  useEffect(() => {
    if (error) onLoadFailure(error);
  }, [error, onLoadFailure]);
  return query;
}
