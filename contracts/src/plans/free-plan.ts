/**
 * What a new account gets before it subscribes (spec section 9's comparison table): one
 * network, two clients per network, basic models. The billing context owns plans; until a
 * user has a subscription, this is their plan.
 */
export const FREE_PLAN = {
  slug: 'free',
  name: 'Free',
  maxNetworks: 1,
  maxClientsPerNetwork: 2,
  allowedModels: [] as string[],
} as const;
