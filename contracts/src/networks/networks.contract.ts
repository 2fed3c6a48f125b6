import { z } from 'zod';
import { text, uuid } from '../common/fields';
import { timestamp } from '../http/http.contract';

/** A network's name as the customer types it. */
const networkName = text('Name', { max: 100 });

/**
 * POST /networks/create/ (the spec's call). `model_id` is a model as the site lists it: its
 * name (the plan info's `available_models[].name`), or the catalog's id for it.
 */
export const CreateNetworkRequest = z.object({
  name: networkName,
  model_id: text('Model', { max: 100 }),
});
export type CreateNetworkRequest = z.input<typeof CreateNetworkRequest>;

/** PATCH /networks/{id}/. */
export const RenameNetworkRequest = z.object({ name: networkName });
export type RenameNetworkRequest = z.input<typeof RenameNetworkRequest>;

/**
 * POST /networks/keep/: the networks to keep running when the plan allows fewer than the
 * customer has; the others are suspended as needed to fit the plan (newest first).
 */
export const KeepNetworksRequest = z.object({
  network_ids: z
    .array(uuid('Network'), { error: 'Networks must be a list of network ids' })
    .min(1, 'Choose at least one network to keep')
    .max(999, 'Choose at most 999 networks'),
});
export type KeepNetworksRequest = z.input<typeof KeepNetworksRequest>;

/** A network's id in a path. */
export const NetworkId = uuid('Network');

export const NetworkStatus = z.enum(['active', 'suspended']);
export type NetworkStatus = z.output<typeof NetworkStatus>;

/** Why a network is suspended: above the plan's network limit, or its model left the plan. */
export const SuspensionKind = z.enum(['plan_limit', 'model_not_allowed']);
export type SuspensionKind = z.output<typeof SuspensionKind>;

export const NetworkClient = z.object({ device_id: z.string(), joined_at: timestamp }).meta({ id: 'NetworkClient' });
export type NetworkClient = z.output<typeof NetworkClient>;

/** A customer's network (issue 12, section 2). */
export const Network = z
  .object({
    id: z.string(),
    name: z.string(),
    model: z.string().meta({ description: "The model's name, as the plan info's available_models list it." }),
    status: NetworkStatus,
    suspended_cause: SuspensionKind.nullable(),
    suspended_reason: z.string().nullable().meta({ description: 'Why the network is suspended, in words for the customer.' }),
    host: z.string().nullable().meta({ description: "The host device's id, or null before one is assigned." }),
    host_certificate_sha256: z
      .string()
      .nullable()
      .meta({ description: "The SHA-256 of the host's LAN certificate as the host device registered it, or null (none registered)." }),
    clients: z.object({ count: z.number().int(), devices: z.array(NetworkClient) }),
    created_at: timestamp,
  })
  .meta({ id: 'Network' });
export type Network = z.output<typeof Network>;

/** The limits in use: 999 means unlimited, as everywhere plans are shown. */
export const NetworkLimits = z
  .object({
    max_networks: z.number().int(),
    max_clients_per_network: z.number().int(),
    used: z.number().int().meta({ description: 'Networks the customer has, suspended ones included.' }),
  })
  .meta({ id: 'NetworkLimits' });
export type NetworkLimits = z.output<typeof NetworkLimits>;

/** GET /networks/: oldest first (the order in which they are kept running). */
export const NetworkList = z.object({ networks: z.array(Network), limits: NetworkLimits }).meta({ id: 'NetworkList' });
export type NetworkList = z.output<typeof NetworkList>;
