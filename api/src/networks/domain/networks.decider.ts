import { type Decider, unreachable } from '../../platform/domain/decider';
import { conflict, forbidden, ruleBroken } from '../../platform/domain/errors';
import type { HostReleaseCause, NetworkModel, NetworksEvent, PlanChange } from './network.events';
import { capOf, limitMessages, type NetworkLimits } from './network-limits';
import { applyPlanLimits, keepNetworks } from './network-plan-rules';
import { activeNetwork, disconnect, type Network, networkOf, sameName, type NetworksState } from './network.state';

/** What can be asked of a customer's networks. `at` is the time of the request: the decider reads no clock. */
export type NetworksCommand =
  | { type: 'CreateNetwork'; at: Date; networkId: string; name: string; model: NetworkModel; limits: NetworkLimits }
  | { type: 'RenameNetwork'; at: Date; networkId: string; name: string }
  | { type: 'DeleteNetwork'; at: Date; networkId: string }
  | { type: 'KeepNetworks'; at: Date; networkIds: readonly string[]; limits: NetworkLimits }
  | { type: 'ApplyPlanLimits'; at: Date; limits: NetworkLimits; change: PlanChange }
  /** `certificateSha256`: the host device's LAN certificate, when the device itself asks (null: keep what is recorded). */
  | { type: 'AssignHost'; at: Date; networkId: string; deviceId: string; certificateSha256: string | null }
  | { type: 'ReleaseHost'; at: Date; networkId: string }
  /** `byDevice`: the device session asking, or null for the owner on the site. */
  | { type: 'IssueJoinCode'; at: Date; networkId: string; codeHash: string; expiresAt: Date; byDevice: string | null }
  | { type: 'JoinClient'; at: Date; codeHash: string; deviceId: string; limits: NetworkLimits }
  | { type: 'LeaveNetwork'; at: Date; networkId: string; deviceId: string }
  | { type: 'RemoveClient'; at: Date; networkId: string; deviceId: string }
  /** A revoked device gives up its place everywhere: as host and as client. */
  | { type: 'ReleaseDevice'; at: Date; deviceId: string };

export type { NetworksState } from './network.state';

const INVALID_CODE = 'This join code is invalid or has expired.';

const released = (networkId: string, deviceId: string, cause: HostReleaseCause): NetworksEvent => ({
  type: 'HostReleased',
  data: { networkId, deviceId, cause },
});

/**
 * One customer's networks as one aggregate, so the network cap and "newest first" are
 * decided against all of them at once under one expected version. Limits come with the
 * command; plan changes arrive as ApplyPlanLimits and never delete anything.
 */
export const networksDecider: Decider<NetworksCommand, NetworksEvent, NetworksState> = {
  initialState: () => ({ networks: [] }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateNetwork': {
        const { networkId, name, model, limits } = command;
        if (state.networks.some((n) => n.networkId === networkId)) throw conflict('This network already exists.');
        if (state.networks.some((n) => sameName(n.name, name))) throw conflict('You already have a network with this name.', 'name');
        // Every network counts, suspended ones too: the cap is how many a customer may have.
        if (state.networks.length >= capOf(limits.maxNetworks)) throw forbidden(limitMessages.networks(limits));
        if (!limits.allowedModels.includes(model.name)) throw forbidden(limitMessages.model(limits, model.name));
        return [{ type: 'NetworkCreated', data: { networkId, name, model } }];
      }
      case 'RenameNetwork': {
        const network = networkOf(state, command.networkId);
        if (network.name === command.name) return [];
        if (state.networks.some((n) => n !== network && sameName(n.name, command.name)))
          throw conflict('You already have a network with this name.', 'name');
        return [{ type: 'NetworkRenamed', data: { networkId: network.networkId, name: command.name } }];
      }
      case 'DeleteNetwork':
        return [{ type: 'NetworkDeleted', data: { networkId: networkOf(state, command.networkId).networkId } }];
      case 'KeepNetworks':
        return keepNetworks(state, command.networkIds, command.limits);
      case 'ApplyPlanLimits':
        return applyPlanLimits(state, command.limits, command.change);
      case 'AssignHost': {
        const network = activeNetwork(state, command.networkId);
        const { deviceId, certificateSha256 } = command;
        // The host again: only a newly registered certificate changes anything.
        if (network.host === deviceId && (certificateSha256 === null || certificateSha256 === network.hostCertificate)) return [];
        if (network.host && network.host !== deviceId) throw conflict('This network already has a host.');
        if (network.clients.includes(deviceId)) throw conflict('This device is a client of the network; remove it first.');
        // Written only when registered: the owner's assignment on the site is stored as it always was.
        const registered = certificateSha256 === null ? {} : { certificateSha256 };
        return [{ type: 'HostAssigned', data: { networkId: network.networkId, deviceId, ...registered } }];
      }
      case 'ReleaseHost': {
        const network = networkOf(state, command.networkId);
        return network.host ? [released(network.networkId, network.host, { kind: 'released' })] : [];
      }
      case 'IssueJoinCode': {
        const network = activeNetwork(state, command.networkId);
        if (!network.host) throw conflict('Assign a host to this network first.');
        if (command.byDevice !== null && command.byDevice !== network.host)
          throw forbidden("Only the network's host device, or you on the site, can issue a join code.");
        const { codeHash, expiresAt } = command;
        return [{ type: 'JoinCodeIssued', data: { networkId: network.networkId, codeHash, expiresAt: expiresAt.toISOString() } }];
      }
      case 'JoinClient': {
        const network = state.networks.find((n) => n.joinCode?.codeHash === command.codeHash);
        if (!network?.joinCode || new Date(network.joinCode.expiresAt) <= command.at) throw ruleBroken(INVALID_CODE, 'code');
        const running = activeNetwork(state, network.networkId);
        if (running.clients.includes(command.deviceId)) return [];
        if (running.host === command.deviceId) throw conflict("This device is the network's host.");
        if (running.clients.length >= capOf(command.limits.maxClientsPerNetwork)) throw forbidden(limitMessages.clients(command.limits));
        return [{ type: 'ClientJoined', data: { networkId: running.networkId, deviceId: command.deviceId } }];
      }
      case 'LeaveNetwork': {
        const network = networkOf(state, command.networkId);
        if (network.host === command.deviceId) throw conflict('This device hosts the network: release the host instead.');
        if (!network.clients.includes(command.deviceId)) return [];
        return [disconnect(network.networkId, command.deviceId, { kind: 'left' })];
      }
      case 'RemoveClient': {
        const network = networkOf(state, command.networkId);
        if (!network.clients.includes(command.deviceId)) return [];
        return [{ type: 'ClientRemoved', data: { networkId: network.networkId, deviceId: command.deviceId } }];
      }
      case 'ReleaseDevice': {
        const { deviceId } = command;
        return state.networks.flatMap((n): NetworksEvent[] => {
          if (n.host === deviceId) return [released(n.networkId, deviceId, { kind: 'device_revoked' })];
          if (!n.clients.includes(deviceId)) return [];
          return [disconnect(n.networkId, deviceId, { kind: 'device_revoked' })];
        });
      }
      default:
        return unreachable(command);
    }
  },

  evolve(state, event) {
    const change = (networkId: string, update: (network: Network) => Network): NetworksState => ({
      networks: state.networks.map((n) => (n.networkId === networkId ? update(n) : n)),
    });
    switch (event.type) {
      case 'NetworkCreated': {
        const { networkId, name, model } = event.data;
        const network: Network = {
          networkId,
          name,
          model,
          host: null,
          hostCertificate: null,
          joinCode: null,
          clients: [],
          status: 'active',
        };
        return { networks: [...state.networks, network] };
      }
      case 'NetworkRenamed':
        return change(event.data.networkId, (n) => ({ ...n, name: event.data.name }));
      case 'NetworkDeleted':
        return { networks: state.networks.filter((n) => n.networkId !== event.data.networkId) };
      case 'NetworkSuspended':
        return change(event.data.networkId, (n) => ({ ...n, status: 'suspended', cause: event.data.cause }));
      case 'NetworkResumed':
        return change(event.data.networkId, ({ networkId, name, model, host, hostCertificate, joinCode, clients }) => ({
          ...{ networkId, name, model, host, hostCertificate, joinCode, clients },
          status: 'active',
        }));
      case 'HostAssigned':
        return change(event.data.networkId, (n) => ({
          ...n,
          host: event.data.deviceId,
          hostCertificate: event.data.certificateSha256 ?? null,
        }));
      case 'JoinCodeIssued':
        return change(event.data.networkId, (n) => ({
          ...n,
          joinCode: { codeHash: event.data.codeHash, expiresAt: event.data.expiresAt },
        }));
      case 'ClientJoined':
        return change(event.data.networkId, (n) => ({ ...n, clients: [...n.clients, event.data.deviceId] }));
      case 'ClientDisconnected':
      case 'ClientRemoved':
        return change(event.data.networkId, (n) => ({ ...n, clients: n.clients.filter((d) => d !== event.data.deviceId) }));
      case 'HostReleased':
        // The join code is the host's to show: it ends with the host.
        return change(event.data.networkId, (n) => ({ ...n, host: null, hostCertificate: null, joinCode: null }));
      default:
        return unreachable(event);
    }
  },
};
