import { conflict, notFound } from '../../platform/domain/errors';
import type { DisconnectCause, NetworkModel, NetworksEvent, PlanChange, SuspensionCause } from './network.events';

interface NetworkBase {
  networkId: string;
  name: string;
  model: NetworkModel;
  host: string | null;
  /** The host's LAN certificate (SHA-256 hex) as its device registered it; null: none registered. */
  hostCertificate: string | null;
  joinCode: { codeHash: string; expiresAt: string } | null;
  /** Connected clients, in the order they joined (the newest is disconnected first). */
  clients: string[];
}

export type Network = (NetworkBase & { status: 'active' }) | (NetworkBase & { status: 'suspended'; cause: SuspensionCause });

/** All of one customer's networks, oldest first: their order decides which run under a cap. */
export interface NetworksState {
  networks: Network[];
}

/** The network, or a 404 (a deleted one is gone for its owner too). */
export function networkOf(state: NetworksState, networkId: string): Network {
  const network = state.networks.find((n) => n.networkId === networkId);
  if (!network) throw notFound();
  return network;
}

/** The network, if it is running: membership changes only on a running network. */
export function activeNetwork(state: NetworksState, networkId: string): Network & { status: 'active' } {
  const network = networkOf(state, networkId);
  if (network.status !== 'active') throw conflict('This network is suspended. Choose it among the networks to keep, or upgrade, first.');
  return network;
}

export const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export const suspend = (networkId: string, cause: SuspensionCause): NetworksEvent => ({
  type: 'NetworkSuspended',
  data: { networkId, cause },
});

export const resume = (networkId: string, change: PlanChange): NetworksEvent => ({ type: 'NetworkResumed', data: { networkId, change } });

export const disconnect = (networkId: string, deviceId: string, cause: DisconnectCause): NetworksEvent => ({
  type: 'ClientDisconnected',
  data: { networkId, deviceId, cause },
});
