import type { DeviceList } from '@meshwork/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../shared/api/api-client';
import { networksQueryKeys } from './networks-query-keys';

/** GET /devices/: the customer's devices, newest first. */
export function fetchDevices(signal?: AbortSignal): Promise<DeviceList> {
  return apiClient.get<DeviceList>('/devices/', { signal });
}

export function devicesQueryOptions() {
  return queryOptions({ queryKey: networksQueryKeys.devices, queryFn: ({ signal }) => fetchDevices(signal) });
}

export function useDevices() {
  return useQuery(devicesQueryOptions());
}
