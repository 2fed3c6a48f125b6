import type { AdminModel } from '@meshwork/contracts';
import { forbidden, notFound } from '../../platform/domain/errors';
import type { CatalogQueries } from './catalog.query';

/** The model, if it exists, is active and the plan may use it: 404 otherwise, or 403 when only the plan stands in the way. */
export async function allowedModel(queries: CatalogQueries, planId: string, name: string): Promise<AdminModel> {
  const model = await queries.modelByName(name);
  if (!model || model.status !== 'active') throw notFound();
  if (!model.allowedPlans.includes(planId)) throw forbidden('Your plan does not include this model.');
  return model;
}
