import type { QueryClient } from '@tanstack/react-query';
import { billingQueryKeys } from '../../../shared/billing/billing-query-keys';

export const networksQueryKeys = {
  networks: ['networks'],
  devices: ['devices'],
} as const;

/**
 * After any change to networks or devices: the list, the devices (a revoke frees a host's
 * place) and the dashboard's "networks in use" all show it. Not awaited by callers that
 * close a dialog on success, so the dialog does not wait for the refetch.
 */
export async function refreshNetworkData(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [networksQueryKeys.networks, networksQueryKeys.devices, billingQueryKeys.dashboard].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
