/** A model as a network names it: the catalog's id and the name customers know it by. */
export interface NetworkModel {
  id: string;
  name: string;
}

/**
 * The plan change behind a suspension, resumption or disconnection: the plan then in force,
 * and what changed (the customer's subscription, staff editing the plan, a model's access,
 * or the customer's own choice of networks to keep), with the event that did it.
 */
export interface PlanChange {
  planId: string;
  planName: string;
  source: 'subscription' | 'plan' | 'model' | 'customer';
  /** The billing or catalog event that caused it; null for the customer's own choice. */
  eventId: string | null;
}

export interface SuspensionCause {
  kind: 'plan_limit' | 'model_not_allowed';
  change: PlanChange;
}

/** Why a client left a network: a lower cap, or its device left or was revoked. */
export type DisconnectCause = { kind: 'plan_limit'; change: PlanChange } | { kind: 'left' | 'device_revoked' };

/** Why a network lost its host: the owner released it, or the host device was revoked. */
export interface HostReleaseCause {
  kind: 'released' | 'device_revoked';
}

/**
 * A customer's networks (stream `networks-<user id>`). Each event's actor is in its
 * metadata. Stored type names and shapes are schema: never rename one.
 */
export type NetworksEvent =
  | { type: 'NetworkCreated'; data: { networkId: string; name: string; model: NetworkModel } }
  | { type: 'NetworkRenamed'; data: { networkId: string; name: string } }
  | { type: 'NetworkDeleted'; data: { networkId: string } }
  | { type: 'NetworkSuspended'; data: { networkId: string; cause: SuspensionCause } }
  | { type: 'NetworkResumed'; data: { networkId: string; change: PlanChange } }
  /**
   * `certificateSha256`: the host's LAN certificate as the host device itself registered it
   * (absent in events from before it was recorded, and when the owner assigns the host on the site).
   */
  | { type: 'HostAssigned'; data: { networkId: string; deviceId: string; certificateSha256?: string | null } }
  | { type: 'JoinCodeIssued'; data: { networkId: string; codeHash: string; expiresAt: string } }
  | { type: 'ClientJoined'; data: { networkId: string; deviceId: string } }
  | { type: 'ClientDisconnected'; data: { networkId: string; deviceId: string; cause: DisconnectCause } }
  | { type: 'ClientRemoved'; data: { networkId: string; deviceId: string } }
  | { type: 'HostReleased'; data: { networkId: string; deviceId: string; cause: HostReleaseCause } };

export type NetworksEventType = NetworksEvent['type'];
