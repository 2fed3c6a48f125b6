import type { PoolClient } from 'pg';
import type { ModelEvent } from '../../catalog';

/**
 * Which models each plan allows, kept in the billing read model's own table from the
 * catalog's model events (types only from the catalog; no query reads its schema). A plan's
 * allowed_models are the published models, active or not, whose plans include it; a model
 * still uploading, failed or deleted is none of them. The table is PlanModelRecord
 * (billing.entities.ts).
 */

export const MODEL_EVENTS = [
  'ModelUploadStarted',
  'ModelPublished',
  'ModelProcessingFailed',
  'ModelAccessChanged',
  'ModelDeleted',
] as const;

/** SQL for the names (a jsonb list, by name) of the models the plan whose id the SQL expression `planId` gives allows. */
export function planModelNamesSql(schema: string, planId: string): string {
  return `coalesce((SELECT jsonb_agg(m.name ORDER BY m.name) FROM ${schema}.model_access m
    WHERE m.published AND m.plans ? ${planId}), '[]'::jsonb)`;
}

export async function applyModelEvent(db: PoolClient, schema: string, modelId: string, event: ModelEvent): Promise<void> {
  const models = `${schema}.model_access`;
  switch (event.type) {
    case 'ModelUploadStarted':
      await db.query(`INSERT INTO ${models} (model_id, name, plans) VALUES ($1, $2, $3)`, [
        modelId,
        event.data.model.name,
        JSON.stringify(event.data.allowedPlans),
      ]);
      return;
    case 'ModelPublished':
      await db.query(`UPDATE ${models} SET published = true WHERE model_id = $1`, [modelId]);
      return;
    case 'ModelAccessChanged':
      await db.query(`UPDATE ${models} SET plans = $2 WHERE model_id = $1`, [modelId, JSON.stringify(event.data.to)]);
      return;
    case 'ModelProcessingFailed':
    case 'ModelDeleted':
      await db.query(`DELETE FROM ${models} WHERE model_id = $1`, [modelId]);
      return;
    default:
      return;
  }
}
