import type { AdminModel } from '@meshwork/contracts';

/** Spec section 3, "Access matrix": `${modelId}:${planId}` to whether that plan may use that model. */
export type AccessMatrix = Record<string, boolean>;

export const matrixKey = (modelId: string, plan: string): string => `${modelId}:${plan}`;

/** Every model by every plan shown (`planIds`), as the models allow now. */
export function matrixOf(models: readonly AdminModel[], planIds: readonly string[]): AccessMatrix {
  const matrix: AccessMatrix = {};
  for (const model of models) {
    for (const plan of planIds) matrix[matrixKey(model.id, plan)] = model.allowedPlans.includes(plan);
  }
  return matrix;
}

/**
 * The models whose plans the matrix changes, each with the plans it now allows (spec section 4).
 * Plans the matrix has no column for (archived ones) stay as they were, as the server keeps them.
 */
export function changedModels(models: readonly AdminModel[], matrix: AccessMatrix, planIds: readonly string[]): AdminModel[] {
  return models.flatMap((model) => {
    const kept = model.allowedPlans.filter((plan) => !planIds.includes(plan));
    const allowedPlans = [...kept, ...planIds.filter((plan) => matrix[matrixKey(model.id, plan)] === true)];
    const same = allowedPlans.length === model.allowedPlans.length && allowedPlans.every((plan) => model.allowedPlans.includes(plan));
    return same ? [] : [{ ...model, allowedPlans }];
  });
}
