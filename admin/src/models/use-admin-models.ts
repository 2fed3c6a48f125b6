import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataProvider } from 'react-admin';
import type { AdminModel } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../app/data-provider';
import { useLoadFailureToast } from '../layout/load-failure';
import { catalogKeys } from './catalog-api';

// A model is 'processing' while the server assembles and checks its files: look again until it is not.
const PROCESSING_POLL_MS = 5000;

/** GET /admin-panel/models/, toasting 'Failed to load models' when it fails (spec section 8; no sample models). */
export function useAdminModels() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const onLoadFailure = useLoadFailureToast('resources.models.notifications.load_failed');
  const query = useQuery({
    queryKey: catalogKeys.models,
    queryFn: () => dataProvider.getAdminModels(),
    // A session that ended mid-call answers a placeholder (react-admin's) while the browser leaves for /login.
    select: (models) => (Array.isArray(models) ? models : []),
    refetchInterval: (current) => (current.state.data?.some((model) => model.status === 'processing') ? PROCESSING_POLL_MS : false),
  });
  const { error } = query;
  useEffect(() => {
    if (error) onLoadFailure(error);
  }, [error, onLoadFailure]);
  return query;
}

/** Writes to the cached list without a round trip: a deleted model leaves it, a changed one replaces its old self. */
export function useModelCache() {
  const queryClient = useQueryClient();
  const update = (change: (models: AdminModel[]) => AdminModel[]) =>
    queryClient.setQueryData<AdminModel[]>(catalogKeys.models, (models) => (models ? change(models) : models));
  return {
    remove: (modelId: string) => update((models) => models.filter((model) => model.id !== modelId)),
    replace: (changed: AdminModel[]) =>
      update((models) => models.map((model) => changed.find((candidate) => candidate.id === model.id) ?? model)),
    reload: () => queryClient.invalidateQueries({ queryKey: catalogKeys.models }),
  };
}
