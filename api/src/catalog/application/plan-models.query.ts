import type { AdminModel, ModelManifest } from '@meshwork/contracts';
import type { Database } from '../../platform/database/database';
import { readModelSchema } from '../../platform/projections/projection';
import { CATALOG_PROJECTION, type ModelFileRecord, type ModelRecord } from '../projections/catalog.entities';
import { modelManifest } from './model-manifest';

const S = readModelSchema(CATALOG_PROJECTION);

/** A published model a plan opens, with the manifest GET /models/{name}/manifest/ serves. */
export interface PlanModel {
  name: string;
  version: string;
  /** Whether it may be downloaded now (status 'active'); staff may have deactivated it. */
  active: boolean;
  manifest: ModelManifest;
}

/** A model with its files' manifest fields (jsonb: each size a JSON number, read through Number as the entity's string). */
type ModelWithFiles = ModelRecord & { files: Pick<ModelFileRecord, 'name' | 'size' | 'sha256' | 'part_index'>[] };

/**
 * Which models each of `planIds` opens, by name: the published models (active or
 * deactivated) whose allowed_plans include the plan, read from the catalog's `models` table
 * in one query. A model still uploading, failed or deleted opens nothing. This is the one
 * place the fact is read: billing's plan answers list the names, the user object the active
 * names, the entitlement document the active ones with their manifests. Every plan asked
 * about is in the map, with an empty list if it opens nothing.
 */
export async function modelsOfPlans(database: Database, planIds: readonly string[]): Promise<Map<string, PlanModel[]>> {
  const plans = [...new Set(planIds)];
  // Raw SQL: a measured hot path (bench:entitlements, the entitlement fan-out), one query for every plan.
  const { rows } = await database.pool.query<ModelWithFiles>(
    `SELECT m.*, coalesce((SELECT jsonb_agg(jsonb_build_object('name', f.name, 'size', f.size, 'sha256', f.sha256, 'part_index', f.part_index)
                                   ORDER BY f.part_index) FROM ${S}.model_files f WHERE f.model_id = m.id), '[]'::jsonb) AS files
       FROM ${S}.models m WHERE m.status IN ('active', 'inactive') AND m.allowed_plans ?| $1::text[] ORDER BY m.name`,
    [plans],
  );
  const models = rows.map((row) => ({
    plans: row.allowed_plans as string[],
    model: { name: row.name, version: row.version, active: row.status === 'active', manifest: modelManifest(asModel(row)) },
  }));
  return new Map(plans.map((planId) => [planId, models.filter((m) => m.plans.includes(planId)).map((m) => m.model)]));
}

/** The row in the shape the manifest is made from (the same fields CatalogQueries answers). */
function asModel(row: ModelWithFiles): AdminModel {
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
