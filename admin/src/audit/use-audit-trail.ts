import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../app/data-provider';
import { useLoadFailureToast } from '../layout/load-failure';
import { auditKey } from './audit-api';
import type { AuditFilterValues } from './audit-filter';

/**
 * The audit entries a filter matches, newest first, a page at a time: `loadMore` asks for the
 * page after the last one by its cursor. A failure is toasted once the query gives up.
 */
export function useAuditTrail(filter: AuditFilterValues, limit = 50) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const onLoadFailure = useLoadFailureToast('resources.audit.notifications.load_failed');
  const query = useInfiniteQuery({
    queryKey: auditKey(filter, limit),
    queryFn: ({ pageParam }) => dataProvider.getAuditPage(filter, { cursor: pageParam, limit }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const { error } = query;
  useEffect(() => {
    if (error) onLoadFailure(error);
  }, [error, onLoadFailure]);
  return {
    entries: query.data?.pages.flatMap((page) => page.results) ?? [],
    isPending: query.isPending,
    error,
    hasMore: query.hasNextPage,
    isLoadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
