import type { AdminModel, ModelManifest } from '@meshwork/contracts';

/**
 * A model's manifest, as GET /models/{name}/manifest/ serves it: every file a host must
 * download, verify and load. The networks context hashes this same object for the
 * entitlement document's `manifest_sha256`, so the two cannot drift apart.
 */
export function modelManifest(model: AdminModel): ModelManifest {
  return {
    model_id: model.id,
    name: model.name,
    display_name: model.display_name,
    version: model.version,
    total_size: model.fileSize,
    files: model.files.map((f) => ({
      ...f,
      download_path: `/api/v1/models/${encodeURIComponent(model.name)}/files/${encodeURIComponent(f.name)}/download/`,
    })),
  };
}
