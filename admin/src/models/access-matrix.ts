import { type AdminModel, type ModelPlan, MODEL_PLANS } from '../../../contracts/src/catalog/catalog.contract';

/** Spec section 3, "Access matrix": `${modelId}:${planId}` to whether that plan may use that model. */
export type AccessMatrix = Record<string, boolean>;

export const matrixKey = (modelId: string, plan: ModelPlan): string => `${modelId}:${plan}`;

/** Every model by every plan, as the models allow now. */
export function matrixOf(models: readonly AdminModel[]): AccessMatrix {
  const matrix: AccessMatrix = {};
  for (const model of models) {
    for (const plan of MODEL_PLANS) matrix[matrixKey(model.id, plan)] = model.allowedPlans.includes(plan);
  }
  return matrix;
}

/** The models whose plans the matrix changes, each with the plans it now allows (spec section 4). */
export function changedModels(models: readonly AdminModel[], matrix: AccessMatrix): AdminModel[] {
  return models.flatMap((model) => {
    const allowedPlans = MODEL_PLANS.filter((plan) => matrix[matrixKey(model.id, plan)] === true);
    const same = allowedPlans.length === model.allowedPlans.length && allowedPlans.every((plan) => model.allowedPlans.includes(plan));
    return same ? [] : [{ ...model, allowedPlans }];
  });
}
