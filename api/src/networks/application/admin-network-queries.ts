import { Inject, Injectable } from '@nestjs/common';
import type { AdminNetwork } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../platform/database/database';
import { readModelSchema } from '../../platform/projections/projection';
import type { SuspensionCause } from '../domain/network.events';
import { DEVICES_PROJECTION } from '../projections/devices.entities';
import { NETWORKS_PROJECTION } from '../projections/networks.entities';
import { suspensionText } from './network-queries';

const NETWORKS = readModelSchema(NETWORKS_PROJECTION);
const DEVICES = readModelSchema(DEVICES_PROJECTION);

interface AdminNetworkRow {
  id: string;
  name: string;
  model_name: string;
  status: AdminNetwork['status'];
  suspension: SuspensionCause | null;
  host_device_id: string | null;
  host_device_name: string | null;
  client_count: number;
  created_at: Date;
}

/** The console dashboard's device and network counts. */
export interface NetworkFigures {
  totalDevices: number;
  activeDevices: number;
  totalNetworks: number;
  suspendedNetworks: number;
}

/**
 * The staff console's reads of the networks context: a customer's networks with their host
 * named (both read models belong to this context, so one query joins them), and the counts
 * the dashboard shows.
 */
@Injectable()
export class AdminNetworkQueries {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** The user's networks, oldest first (the customer's order); an unknown user has none. */
  async networksOf(userId: string): Promise<AdminNetwork[]> {
    const { rows } = await this.database.pool.query<AdminNetworkRow>(
      `SELECT n.id, n.name, n.model_name, n.status, n.suspension, n.host_device_id, d.name AS host_device_name, n.created_at,
              (SELECT count(*)::int FROM ${NETWORKS}.network_clients c WHERE c.network_id = n.id) AS client_count
         FROM ${NETWORKS}.networks n LEFT JOIN ${DEVICES}.devices d ON d.id::text = n.host_device_id
        WHERE n.user_id = $1 ORDER BY n.created_position`,
      [userId],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      model: row.model_name,
      status: row.status,
      suspended_cause: row.suspension?.kind ?? null,
      suspended_reason: row.suspension ? suspensionText(row.suspension, row.model_name) : null,
      host_device_id: row.host_device_id,
      host_device_name: row.host_device_name,
      client_count: row.client_count,
      created_at: row.created_at.toISOString(),
    }));
  }

  /** Every customer's devices and networks, counted (deleted accounts' devices are gone from the read model). */
  async figures(): Promise<NetworkFigures> {
    const { rows } = await this.database.pool.query<NetworkFigures>(
      `SELECT (SELECT count(*)::int FROM ${DEVICES}.devices) AS "totalDevices",
              (SELECT count(*)::int FROM ${DEVICES}.devices WHERE status = 'active') AS "activeDevices",
              (SELECT count(*)::int FROM ${NETWORKS}.networks) AS "totalNetworks",
              (SELECT count(*)::int FROM ${NETWORKS}.networks WHERE status = 'suspended') AS "suspendedNetworks"`,
    );
    return rows[0]!;
  }
}
