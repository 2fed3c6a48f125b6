import type { AdminModel, ModelManifest, ModelPlan } from '@meshwork/contracts';
import type { Database } from '../../platform/database/database';
import { readModelSchema } from '../../platform/projections/projection';
import { CATALOG_PROJECTION, type ModelFileRecord, type ModelRecord } from '../projections/catalog.entities';
import { modelManifest } from './model-manifest';

const S = readModelSchema(CATALOG_PROJECTION);

/** An active model open to some of the plans asked about, with the manifest GET /models/{name}/manifest/ serves. */
export interface OpenModel {
  name: string;
  version: string;
  allowedPlans: ModelPlan[];
  manifest: ModelManifest;
}

type Row = ModelRecord & { files: Pick<ModelFileRecord, 'name' | 'size' | 'sha256' | 'part_index'>[] };

/**
 * The active models open to any of `planIds`, each with its manifest, in one query: the
 * catalog's own access rule (active, the plan in allowed_plans), as GET /models/ applies it.
 */
export async function openModelsOf(database: Database, planIds: readonly string[]): Promise<OpenModel[]> {
  const { rows } = await database.pool.query<Row>(
    `SELECT m.*, coalesce((SELECT jsonb_agg(jsonb_build_object('name', f.name, 'size', f.size, 'sha256', f.sha256, 'part_index', f.part_index)
                                   ORDER BY f.part_index) FROM ${S}.model_files f WHERE f.model_id = m.id), '[]'::jsonb) AS files
       FROM ${S}.models m WHERE m.status = 'active' AND m.allowed_plans ?| $1::text[] ORDER BY m.name`,
    [planIds],
  );
  return rows.map((row) => ({
    name: row.name,
    version: row.version,
    allowedPlans: row.allowed_plans,
    manifest: modelManifest(asModel(row)),
  }));
}

/** The row in the shape the manifest is made from (the same fields CatalogQueries answers). */
function asModel(row: Row): AdminModel {
  const files = row.files.map((f) => ({ name: f.name, size: Number(f.size), sha256: f.sha256, part_index: f.part_index }));
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    version: row.version,
    fileName: files[0]?.name ?? '',
    fileSize: Number(row.total_size),
    fileType: '',
    uploadDate: row.uploaded_at.toISOString(),
    uploadedBy: '',
    status: row.status,
    allowedPlans: row.allowed_plans,
    metadata: { description: row.description, parameters: row.parameters, architecture: row.architecture },
    files,
  };
}
