import { forbidden, notFound } from '../../platform/domain/errors';
import type { NetworksEvent, PlanChange } from './network.events';
import { capOf, limitMessages, type NetworkLimits } from './network-limits';
import { disconnect, type Network, type NetworksState, resume, suspend } from './network.state';

/**
 * What a plan's limits do to networks that exist: never a deletion, only suspensions,
 * resumptions and disconnections, each naming the plan change behind it.
 *
 * - A network whose model the plan no longer allows is suspended for that reason.
 * - Among the others, running networks above the network cap are suspended, newest first.
 * - Below the cap, suspended networks whose model is allowed resume, oldest first, until the
 *   cap is reached; one left suspended for its model, now allowed, is re-suspended for the
 *   limit so that its reason stays true.
 * - Every network keeps at most the client cap of clients; the newest are disconnected.
 */
export function applyPlanLimits(state: NetworksState, limits: NetworkLimits, change: PlanChange): NetworksEvent[] {
  const allowed = new Set(limits.allowedModels);
  const events: NetworksEvent[] = [];
  for (const network of state.networks) {
    if (allowed.has(network.model.name)) continue;
    if (network.status === 'active' || network.cause.kind !== 'model_not_allowed')
      events.push(suspend(network.networkId, { kind: 'model_not_allowed', change }));
  }
  const eligible = state.networks.filter((n) => allowed.has(n.model.name));
  events.push(...fitToCap(eligible, [], capOf(limits.maxNetworks), change, true));
  return [...events, ...capClients(state.networks, capOf(limits.maxClientsPerNetwork), change)];
}

/**
 * The customer's choice of networks to run under the cap: the chosen ones run (resumed if
 * suspended); other running networks stay running while there is room, oldest first, and
 * the rest are suspended newest first. Nobody else's choice is resumed.
 */
export function keepNetworks(state: NetworksState, networkIds: readonly string[], limits: NetworkLimits): NetworksEvent[] {
  const chosen = [...new Set(networkIds)].map((id) => {
    const network = state.networks.find((n) => n.networkId === id);
    if (!network) throw notFound();
    if (!limits.allowedModels.includes(network.model.name)) throw forbidden(limitMessages.model(limits, network.model.name));
    return network;
  });
  const cap = capOf(limits.maxNetworks);
  if (chosen.length > cap) throw forbidden(limitMessages.keep(limits));
  const change: PlanChange = { planId: limits.planId, planName: limits.planName, source: 'customer', eventId: null };
  const others = state.networks.filter((n) => !chosen.includes(n) && n.status === 'active');
  return fitToCap(others, chosen, cap, change, false);
}

/**
 * Running networks beyond the room `cap` leaves after `first` (which must run) are
 * suspended newest first; `first` resumes; with `fillRoom`, suspended ones resume oldest first.
 */
function fitToCap(networks: Network[], first: Network[], cap: number, change: PlanChange, fillRoom: boolean): NetworksEvent[] {
  const events: NetworksEvent[] = first.filter((n) => n.status === 'suspended').map((n) => resume(n.networkId, change));
  let room = cap - first.length;
  const running = networks.filter((n) => n.status === 'active');
  const kept = running.slice(0, Math.max(room, 0));
  const over = running.slice(kept.length).reverse();
  events.push(...over.map((n) => suspend(n.networkId, { kind: 'plan_limit', change })));
  room -= kept.length;
  if (!fillRoom) return events;
  for (const network of networks) {
    if (network.status !== 'suspended') continue;
    if (room > 0) {
      events.push(resume(network.networkId, change));
      room -= 1;
    } else if (network.cause.kind === 'model_not_allowed') {
      events.push(suspend(network.networkId, { kind: 'plan_limit', change }));
    }
  }
  return events;
}

/** Disconnects the clients above the cap, newest first, in every network. */
function capClients(networks: Network[], cap: number, change: PlanChange): NetworksEvent[] {
  return networks.flatMap((network) =>
    network.clients
      .slice(cap)
      .reverse()
      .map((deviceId) => disconnect(network.networkId, deviceId, { kind: 'plan_limit', change })),
  );
}
