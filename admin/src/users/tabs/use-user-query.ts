import { type QueryKey, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLoadFailureToast } from '../../layout/load-failure';

/**
 * A query of the user's tab, toasting `failureMessage` once it gives up (after its retries),
 * as the dashboard does; the tab then shows the message where its list would be.
 */
export function useUserQuery<T>(queryKey: QueryKey, queryFn: () => Promise<T>, failureMessage: string) {
  const onLoadFailure = useLoadFailureToast(failureMessage);
  const query = useQuery({ queryKey, queryFn });
  useEffect(() => {
    if (query.error) onLoadFailure(query.error);
  }, [query.error, onLoadFailure]);
  return query;
}
