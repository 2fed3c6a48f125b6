import type { EntitledHost } from '@meshwork/contracts';
import type { Database } from '../../../platform/database/database';
import { readModelSchema } from '../../../platform/projections/projection';
import type { EntitlementNetwork } from '../../domain/entitlement-document';
import { NETWORKS_PROJECTION, type NetworkRecord } from '../../projections/networks.entities';

const S = readModelSchema(NETWORKS_PROJECTION);

/** A customer's network as a device's document needs it: who hosts it and which devices joined. */
export type MemberNetwork = Pick<
  NetworkRecord,
  'user_id' | 'id' | 'name' | 'model_name' | 'status' | 'host_device_id' | 'host_certificate_sha256'
> & { clients: string[] };

export type MemberNetworks = MemberNetwork[];

/**
 * The networks of many customers in one query (indexed by owner), with their client devices.
 * Raw SQL: the entitlement fan-out's measured hot path (bench:entitlements), one round trip for
 * every affected customer; the rows are the entity's columns.
 */
export async function networksOfUsers(database: Database, userIds: readonly string[]): Promise<Map<string, MemberNetworks>> {
  const { rows } = await database.pool.query<MemberNetwork>(
    `SELECT n.user_id, n.id, n.name, n.model_name, n.status, n.host_device_id, n.host_certificate_sha256,
            array(SELECT c.device_id FROM ${S}.network_clients c WHERE c.network_id = n.id) AS clients
       FROM ${S}.networks n WHERE n.user_id = ANY($1::text[]) ORDER BY n.created_position`,
    [userIds],
  );
  const byUser = new Map<string, MemberNetworks>(userIds.map((id) => [id, []]));
  for (const row of rows) byUser.get(row.user_id)?.push(row);
  return byUser;
}

/** The hosts of the customer's networks that registered a certificate: every device of the account is told them. */
export function hostsOf(networks: MemberNetworks): EntitledHost[] {
  return networks.flatMap((n) =>
    n.host_device_id && n.host_certificate_sha256 ? [{ id: n.id, certificate_sha256: n.host_certificate_sha256 }] : [],
  );
}

/** The networks `deviceId` hosts or has joined, with its role in each. */
export function networksOfDevice(networks: MemberNetworks, deviceId: string): EntitlementNetwork[] {
  return networks.flatMap((network) => {
    const role = network.host_device_id === deviceId ? 'host' : network.clients.includes(deviceId) ? 'client' : null;
    return role ? [{ id: network.id, name: network.name, role, model: network.model_name, status: network.status }] : [];
  });
}
