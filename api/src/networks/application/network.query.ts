import { Inject, Injectable } from '@nestjs/common';
import type { Network } from '@meshwork/contracts';
import { type FindOptionsWhere, In } from 'typeorm';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';
import { notFound } from '../../platform/domain/errors';
import type { SuspensionCause } from '../domain/network.events';
import { NETWORKS_ENTITIES, NetworkClientRecord, NetworkRecord } from '../projections/networks.entities';

/** The networks read model as the customer's calls and the plan-limits follower read it. */
@Injectable()
export class NetworkQueries {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** The customer's networks, oldest first (the order in which a cap keeps them running). */
  async list(userId: string): Promise<Network[]> {
    return this.networks({ user_id: userId });
  }

  /** One of the customer's networks; anyone else's is not found. */
  async one(userId: string, networkId: string): Promise<Network> {
    const [network] = await this.networks({ user_id: userId, id: networkId });
    if (!network) throw notFound();
    return network;
  }

  /** How many networks the customer has, suspended ones included. */
  async count(userId: string): Promise<number> {
    return (await this.repositories()).networks.countBy({ user_id: userId });
  }

  /** Customers with at least one network; with a model id, those with a network on that model. */
  async owners(modelId?: string): Promise<string[]> {
    const owners = (await this.repositories()).networks
      .createQueryBuilder('n')
      .select('n.user_id', 'user_id')
      .distinct(true)
      .orderBy('n.user_id');
    if (modelId !== undefined) owners.where('n.model_id = :modelId', { modelId });
    return (await owners.getRawMany<{ user_id: string }>()).map((row) => row.user_id);
  }

  /** The matching networks, oldest first (ties by creation's log position), each with its clients. */
  private async networks(where: FindOptionsWhere<NetworkRecord>): Promise<Network[]> {
    const { networks, clients } = await this.repositories();
    const rows = await networks.find({ where, order: { created_position: 'ASC' } });
    if (rows.length === 0) return [];
    const joined = await clients.find({
      where: { network_id: In(rows.map((row) => row.id)) },
      order: { joined_at: 'ASC', device_id: 'ASC' },
    });
    return rows.map((row) =>
      toNetwork(
        row,
        joined.filter((client) => client.network_id === row.id),
      ),
    );
  }

  private async repositories() {
    const dataSource = await readSide(this.database.pool, NETWORKS_ENTITIES);
    return { networks: dataSource.getRepository(NetworkRecord), clients: dataSource.getRepository(NetworkClientRecord) };
  }
}

function toNetwork(row: NetworkRecord, clients: NetworkClientRecord[]): Network {
  return {
    id: row.id,
    name: row.name,
    model: row.model_name,
    status: row.status,
    suspended_cause: row.suspension?.kind ?? null,
    suspended_reason: row.suspension ? suspensionText(row.suspension, row.model_name) : null,
    host: row.host_device_id,
    host_certificate_sha256: row.host_certificate_sha256,
    clients: {
      count: clients.length,
      devices: clients.map((c) => ({ device_id: c.device_id, joined_at: c.joined_at.toISOString() })),
    },
    created_at: row.created_at.toISOString(),
  };
}

/** Why a network is suspended, in the customer's words, naming the plan change. */
export function suspensionText({ kind, change }: SuspensionCause, model: string): string {
  if (kind === 'model_not_allowed') return `Your ${change.planName} plan no longer includes the model ${model}.`;
  switch (change.source) {
    case 'subscription':
      return `Your plan changed to ${change.planName}, which allows fewer networks. Choose which networks to keep.`;
    case 'plan':
      return `The ${change.planName} plan now allows fewer networks. Choose which networks to keep.`;
    case 'customer':
      return `Not among the networks you chose to keep on your ${change.planName} plan.`;
    case 'model':
      return `Above the number of networks your ${change.planName} plan allows. Choose which networks to keep.`;
  }
}
