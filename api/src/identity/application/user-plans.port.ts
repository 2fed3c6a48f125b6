/** The user object's plan part: billing's plan and limit, and the catalog's models for it. */
export interface UserPlan {
  plan_id: string;
  max_clients: number;
  /** The names of the models the plan may download now, sorted. */
  allowed_models: string[];
  /** The widest scope the plan gives API tokens now ('none': tokens are refused). */
  api_token_scope: 'none' | 'read' | 'read_write';
  /** Requests per minute each API token may make. */
  api_requests_per_minute: number;
}

/**
 * The plan part of users' user objects. Identity owns who a user is, not what their plan
 * allows, and depends on neither billing nor the catalog: the read side above all three
 * (api/src/accounts) provides this port. Its read models announce their changes on
 * identity_changed, so cached user objects are forgotten when a plan or a model changes.
 */
export interface UserPlans {
  /** Every user asked about is in the map. */
  of(userIds: readonly string[]): Promise<Map<string, UserPlan>>;
}

export const USER_PLANS = Symbol('UserPlans');
