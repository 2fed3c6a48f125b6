import type { ResourceStateQuery } from '@meshwork/contracts';
import { useQuery } from '@tanstack/react-query';
import { HttpError, useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../app/data-provider';

/**
 * A resource replayed up to a point of its log, compared with another when the query names
 * one. Nothing is asked while `enabled` is false (a time still being typed). A replay is
 * computed afresh from the log, so an answer holds for as long as the dialog is open; a 400
 * or a 404 is the api's final word, not worth asking again.
 */
export function useResourceState(resource: string, id: string, query: ResourceStateQuery, enabled: boolean) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['admin-panel', 'audit', 'state', resource, id, query] as const,
    queryFn: () => dataProvider.getResourceState(resource, id, query),
    enabled,
    retry: (count, error) => !(error instanceof HttpError && error.status < 500) && count < 2,
  });
}

/** What the api said went wrong, in its own words (a bad point's field message first); null when it said nothing. */
export function replayErrorOf(error: unknown): string | null {
  if (!(error instanceof HttpError)) return null;
  const body: unknown = error.body;
  if (typeof body === 'object' && body !== null && 'errors' in body && typeof body.errors === 'object' && body.errors !== null) {
    const first: unknown = Object.values(body.errors)[0];
    const message: unknown = Array.isArray(first) ? first[0] : first;
    if (typeof message === 'string' && message) return message;
  }
  return error.message || null;
}
