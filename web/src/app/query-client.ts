import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../shared/api/api-error';

/** Retry a read once when the network or server hiccups; a 4xx answer will not change by asking again. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  return !(error instanceof ApiError) || error.type === 'network' || error.type === 'server';
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
