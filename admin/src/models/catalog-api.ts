import type {
  AdminModel,
  AdminModelList,
  DesktopRelease,
  PartUrl,
  ResumableUpload,
  ResumableUploadStart,
  UploadResponse,
} from '@meshwork/contracts';
import { authorizedFetch } from '../auth/http-client';
import { API_BASE } from '../auth/site-urls';

const MODELS = `${API_BASE}/admin-panel/models`;

/** A release's flags to change: publishing sets both, withdrawing clears is_active. */
export type ReleasePatch = { is_stable?: boolean; is_active?: boolean };
const id = (value: string) => encodeURIComponent(value);

async function call<T>(url: string, method = 'GET', body?: unknown): Promise<T> {
  const { json } = await authorizedFetch(url, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return json as T;
}

/**
 * The model catalogue's admin calls (spec section 7, "Models"). They join the data provider
 * as methods of their own, so `useDataProvider()` hands a refused session to the auth
 * provider as it does for every other call.
 */
export const catalogMethods = {
  /** GET /admin-panel/models/: every model, newest first. */
  getAdminModels: async (): Promise<AdminModel[]> => (await call<AdminModelList>(`${MODELS}/`)).models,

  /** POST /admin-panel/models/access/: the matrix's checkboxes; answers the models it changed. */
  updateModelAccess: async (matrix: Record<string, boolean>): Promise<AdminModel[]> =>
    (await call<AdminModelList>(`${MODELS}/access/`, 'POST', { matrix })).models,

  /** PATCH /admin-panel/models/{id}/: take a model off the plans' lists, or put it back. */
  setModelStatus: (modelId: string, status: 'active' | 'inactive'): Promise<AdminModel> =>
    call<AdminModel>(`${MODELS}/${id(modelId)}/`, 'PATCH', { status }),

  /** DELETE /admin-panel/models/{id}/: the model and its files in storage. */
  deleteModel: (modelId: string): Promise<{ id: string }> => call<{ id: string }>(`${MODELS}/${id(modelId)}/`, 'DELETE'),

  startModelUpload: (body: ResumableUploadStart): Promise<ResumableUpload> => call<ResumableUpload>(`${MODELS}/uploads/`, 'POST', body),

  getModelUpload: (uploadId: string): Promise<ResumableUpload> => call<ResumableUpload>(`${MODELS}/uploads/${id(uploadId)}/`),

  getModelUploadPartUrl: (uploadId: string, file: string, part: number): Promise<PartUrl> =>
    call<PartUrl>(`${MODELS}/uploads/${id(uploadId)}/parts/`, 'POST', { file, part }),

  completeModelUpload: (uploadId: string): Promise<UploadResponse> =>
    call<UploadResponse>(`${MODELS}/uploads/${id(uploadId)}/complete/`, 'POST'),

  cancelModelUpload: (uploadId: string): Promise<unknown> => call<unknown>(`${MODELS}/uploads/${id(uploadId)}/`, 'DELETE'),

  /**
   * GET /admin-panel/models/releases/: the desktop app's releases: the installation's own build
   * (read-only) first, then staff releases, newest first; each file says whether customers get it now.
   */
  getDesktopReleases: (): Promise<DesktopRelease[]> => call<DesktopRelease[]>(`${MODELS}/releases/`),

  /** PATCH /admin-panel/models/releases/{version}/: publish (both flags true), withdraw (is_active false). */
  updateDesktopRelease: (releaseId: string, patch: ReleasePatch): Promise<DesktopRelease> =>
    call<DesktopRelease>(`${MODELS}/releases/${id(releaseId)}/`, 'PATCH', patch),
};

/** The cache keys of the screen's queries. */
export const catalogKeys = {
  models: ['catalog', 'admin-models'] as const,
  releases: ['catalog', 'desktop-releases'] as const,
};
