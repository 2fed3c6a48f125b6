import { Inject, Injectable } from '@nestjs/common';
import { isUuid } from '@meshwork/contracts';
import { BillingQueries } from '../../billing';
import { CatalogQueries } from '../../catalog';
import { DATABASE, type Database } from '../../platform/database/database';
import { AggregateRepository } from '../../platform/domain/aggregate-repository';
import { ruleBroken } from '../../platform/domain/errors';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { readYourWrites } from '../../platform/projections/projection-waiter';
import type { NetworkModel, NetworksEvent } from '../domain/network.events';
import type { NetworkLimits } from '../domain/network-limits';
import { type NetworksCommand, networksDecider, type NetworksState } from '../domain/networks.decider';
import { NETWORKS_PROJECTION } from '../projections/networks.entities';

/**
 * What the network handlers share: each customer's networks aggregate (`networks-<user id>`)
 * and the plan's limits as billing and the catalog tell them, through their public faces.
 */
@Injectable()
export class NetworkContext {
  readonly networks: AggregateRepository<NetworksCommand, NetworksEvent, NetworksState>;

  constructor(
    @Inject(DATABASE) readonly database: Database,
    @Inject(EVENT_STORE) store: EventStore,
    private readonly billing: BillingQueries,
    private readonly catalog: CatalogQueries,
  ) {
    this.networks = new AggregateRepository(store, networksDecider, 'networks');
  }

  /** The customer's plan limits now: billing's numbers and the catalog's models for the plan. */
  async limitsOf(userId: string): Promise<NetworkLimits> {
    const info = await this.billing.planInfo(userId);
    const models = await this.catalog.availableTo(info.plan_slug);
    return {
      planId: info.plan_slug,
      planName: info.plan_name,
      maxNetworks: info.permissions.max_networks,
      maxClientsPerNetwork: info.permissions.max_clients_per_network,
      allowedModels: models.map((m) => m.name),
    };
  }

  /**
   * A model as the customer names it: its name (as the plan info lists models) or the
   * catalog's id. Whether the plan allows it is the decider's to say, with the plan's name.
   */
  async model(reference: string): Promise<NetworkModel> {
    const model = isUuid(reference) ? await this.catalog.adminModel(reference) : await this.catalog.modelByName(reference);
    if (!model || model.status !== 'active') throw ruleBroken(`There is no model "${reference}". Choose one from the list.`, 'model_id');
    return { id: model.id, name: model.name };
  }

  /** Read-your-writes: the networks read model includes `position`. */
  async caughtUp(position: number): Promise<void> {
    await readYourWrites(this.database.pool, [NETWORKS_PROJECTION], position);
  }
}
