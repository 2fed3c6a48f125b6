import type { ModelManifest } from '@meshwork/contracts';
import { apiClient } from '../../../shared/api/api-client';

/** GET /models/{name}/manifest/: every file of the model; 403 'Your plan does not include this model.' otherwise. */
export function fetchModelManifest(name: string, signal?: AbortSignal): Promise<ModelManifest> {
  return apiClient.get<ModelManifest>(`/models/${encodeURIComponent(name)}/manifest/`, { signal });
}
