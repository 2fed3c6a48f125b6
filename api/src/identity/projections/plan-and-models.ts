import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { PlanEvent, SubscriptionEvent } from '../../billing';
import type { ModelEvent } from '../../catalog';
import { FREE_PLAN } from './users.entities';

/**
 * The user object's plan fields, kept in the users read model's own tables from billing's
 * and the catalog's events (types only from their domains; no query reads their schemas).
 *
 * - `users.plan_id`, `users.max_clients`: from the user's last EntitlementsChanged. A user
 *   billing has given none is on the free plan, with its terms as they stand now
 *   (`entitled` false: they follow the `free_plan` row).
 * - `model_access`: each model's name, its plans and whether it may be downloaded now
 *   (published and active, the catalog's status 'active'). A user's allowed models are the
 *   downloadable ones open to their plan (allowedModelsSql).
 */

export const PLAN_AND_MODEL_EVENTS = [
  'EntitlementsChanged',
  'PlanCreated',
  'PlanUpdated',
  'ModelUploadStarted',
  'ModelPublished',
  'ModelProcessingFailed',
  'ModelDeactivated',
  'ModelReactivated',
  'ModelAccessChanged',
  'ModelDeleted',
] as const;

/** Who must forget a cached user object: one user, everyone, or no one. */
export type Affected = { user: string } | 'everyone' | null;

/**
 * SQL for the names (a jsonb list, by name) of the models a subscriber of the plan whose id
 * the SQL expression `planId` gives may download now.
 */
export function allowedModelsSql(schema: string, planId: string): string {
  return `coalesce((SELECT jsonb_agg(m.name ORDER BY m.name) FROM ${schema}.model_access m
    WHERE m.downloadable AND m.plans ? ${planId}), '[]'::jsonb)`;
}

const idOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/** Applies one of PLAN_AND_MODEL_EVENTS; returns whose cached user object it changed. */
export async function applyPlanOrModelEvent(db: PoolClient, schema: string, recorded: RecordedEvent): Promise<Affected> {
  if (recorded.streamId.startsWith('subscription-')) {
    const event = recorded as unknown as SubscriptionEvent;
    if (event.type !== 'EntitlementsChanged') return null;
    const userId = idOf(recorded.streamId);
    await db.query(`UPDATE ${schema}.users SET plan_id = $2, max_clients = $3, entitled = true WHERE id = $1`, [
      userId,
      event.data.planId,
      event.data.maxClientsPerNetwork,
    ]);
    return { user: userId };
  }
  if (recorded.streamId.startsWith('plan-')) return applyFreePlan(db, schema, recorded as unknown as PlanEvent);
  if (recorded.streamId.startsWith('model-')) return applyModel(db, schema, idOf(recorded.streamId), recorded as unknown as ModelEvent);
  return null;
}

/** The free plan's limit, which users without entitlements follow. Other plans reach users through EntitlementsChanged. */
async function applyFreePlan(db: PoolClient, schema: string, event: PlanEvent): Promise<Affected> {
  if (event.data.planId !== FREE_PLAN) return null;
  let maxClients: number;
  if (event.type === 'PlanCreated') maxClients = event.data.terms.maxClientsPerNetwork;
  else if (event.type === 'PlanUpdated' && event.data.changes.maxClientsPerNetwork !== undefined)
    maxClients = event.data.changes.maxClientsPerNetwork;
  else return null;
  await db.query(`DELETE FROM ${schema}.free_plan`);
  await db.query(`INSERT INTO ${schema}.free_plan (max_clients) VALUES ($1)`, [maxClients]);
  await db.query(`UPDATE ${schema}.users SET max_clients = $1 WHERE NOT entitled`, [maxClients]);
  return 'everyone';
}

/** A model's plans and whether it is downloadable; every user object lists the downloadable models of its plan. */
async function applyModel(db: PoolClient, schema: string, modelId: string, event: ModelEvent): Promise<Affected> {
  const models = `${schema}.model_access`;
  // A change to a model no one may download (still uploading, or inactive) changes no user's list.
  const ifDownloadable = ({ rows }: { rows: { downloadable: boolean }[] }): Affected => (rows[0]?.downloadable ? 'everyone' : null);
  switch (event.type) {
    case 'ModelUploadStarted':
      await db.query(`INSERT INTO ${models} (model_id, name, plans) VALUES ($1, $2, $3)`, [
        modelId,
        event.data.model.name,
        JSON.stringify(event.data.allowedPlans),
      ]);
      return null;
    case 'ModelPublished':
    case 'ModelReactivated':
    case 'ModelDeactivated':
      await db.query(`UPDATE ${models} SET downloadable = $2 WHERE model_id = $1`, [modelId, event.type !== 'ModelDeactivated']);
      return 'everyone';
    case 'ModelAccessChanged':
      return ifDownloadable(
        await db.query(`UPDATE ${models} SET plans = $2 WHERE model_id = $1 RETURNING downloadable`, [
          modelId,
          JSON.stringify(event.data.to),
        ]),
      );
    case 'ModelProcessingFailed':
    case 'ModelDeleted':
      return ifDownloadable(await db.query(`DELETE FROM ${models} WHERE model_id = $1 RETURNING downloadable`, [modelId]));
    default:
      return null;
  }
}
