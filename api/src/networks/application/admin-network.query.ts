import { Inject, Injectable } from '@nestjs/common';
import type { AdminNetwork } from '@meshwork/contracts';
import { In } from 'typeorm';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';
import { DEVICES_ENTITIES, DeviceRecord } from '../projections/devices.entities';
import { NETWORKS_ENTITIES, NetworkClientRecord, NetworkRecord } from '../projections/networks.entities';
import { suspensionText } from './network.query';

/** The console dashboard's device and network counts. */
export interface NetworkFigures {
  totalDevices: number;
  activeDevices: number;
  totalNetworks: number;
  suspendedNetworks: number;
}

/**
 * The staff console's reads of the networks context: a customer's networks with their host
 * named (both read models belong to this context), and the counts the dashboard shows.
 */
@Injectable()
export class AdminNetworkQueries {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** The user's networks, oldest first (the customer's order); an unknown user has none. */
  async networksOf(userId: string): Promise<AdminNetwork[]> {
    const { networks, clients, devices } = await this.repositories();
    const rows = await networks.find({ where: { user_id: userId }, order: { created_position: 'ASC' } });
    if (rows.length === 0) return [];
    const clientCounts = await clients
      .createQueryBuilder('c')
      .select('c.network_id', 'network_id')
      .addSelect('count(*)::int', 'count')
      .where('c.network_id IN (:...ids)', { ids: rows.map((row) => row.id) })
      .groupBy('c.network_id')
      .getRawMany<{ network_id: string; count: number }>();
    const hostIds = rows.flatMap((row) => (row.host_device_id ? [row.host_device_id] : []));
    const hosts = hostIds.length > 0 ? await devices.findBy({ id: In(hostIds) }) : [];
    // Looked up by id so the answer stays linear in the user's networks.
    const hostNames = new Map(hosts.map((device) => [device.id, device.name]));
    const clientsPerNetwork = new Map(clientCounts.map((c) => [c.network_id, c.count]));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      model: row.model_name,
      status: row.status,
      suspended_cause: row.suspension?.kind ?? null,
      suspended_reason: row.suspension ? suspensionText(row.suspension, row.model_name) : null,
      host_device_id: row.host_device_id,
      host_device_name: (row.host_device_id && hostNames.get(row.host_device_id)) ?? null,
      client_count: clientsPerNetwork.get(row.id) ?? 0,
      created_at: row.created_at.toISOString(),
    }));
  }

  /** Every customer's devices and networks, counted (deleted accounts' devices are gone from the read model). */
  async figures(): Promise<NetworkFigures> {
    const { networks, devices } = await this.repositories();
    const [totalDevices, activeDevices, totalNetworks, suspendedNetworks] = await Promise.all([
      devices.count(),
      devices.countBy({ status: 'active' }),
      networks.count(),
      networks.countBy({ status: 'suspended' }),
    ]);
    return { totalDevices, activeDevices, totalNetworks, suspendedNetworks };
  }

  private async repositories() {
    const [networks, devices] = await Promise.all([
      readSide(this.database.pool, NETWORKS_ENTITIES),
      readSide(this.database.pool, DEVICES_ENTITIES),
    ]);
    return {
      networks: networks.getRepository(NetworkRecord),
      clients: networks.getRepository(NetworkClientRecord),
      devices: devices.getRepository(DeviceRecord),
    };
  }
}
