import { UNLIMITED } from '@meshwork/contracts';

/**
 * What the customer's plan allows now, read by the handler (billing's limits, the catalog's
 * models for the plan) and passed in with the command: the decider reads nothing itself.
 */
export interface NetworkLimits {
  planId: string;
  planName: string;
  maxNetworks: number;
  maxClientsPerNetwork: number;
  /** Names of the models the plan may use now. */
  allowedModels: readonly string[];
}

/** A limit as a count: 999 (UNLIMITED) and above mean no cap. */
export const capOf = (limit: number): number => (limit >= UNLIMITED ? Infinity : limit);

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The refusals a person reads, naming the plan and the way out. */
export const limitMessages = {
  networks: (limits: NetworkLimits) => `Your ${limits.planName} plan allows ${plural(limits.maxNetworks, 'network')}. Upgrade to add more.`,
  clients: (limits: NetworkLimits) =>
    `Your ${limits.planName} plan allows ${plural(limits.maxClientsPerNetwork, 'client')} per network. Upgrade to add more.`,
  model: (limits: NetworkLimits, model: string) =>
    `Your ${limits.planName} plan does not include the model ${model}. Upgrade to use it, or choose another model.`,
  keep: (limits: NetworkLimits) =>
    `Your ${limits.planName} plan allows ${plural(limits.maxNetworks, 'network')}. Choose at most that many to keep.`,
};
