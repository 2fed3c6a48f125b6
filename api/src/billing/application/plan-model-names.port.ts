/**
 * The names of the models each plan opens, sorted: a plan's `allowed_models`. The catalog
 * decides and records it (its modelsOfPlans); billing only lists it in its plan answers.
 * Since the catalog depends on billing, billing cannot ask it directly: the read side above
 * both (api/src/accounts) provides this port.
 */
export interface PlanModelNames {
  /** Every plan asked about is in the map (an empty list when it opens nothing). */
  of(planIds: readonly string[]): Promise<Map<string, string[]>>;
}

export const PLAN_MODEL_NAMES = Symbol('PlanModelNames');
