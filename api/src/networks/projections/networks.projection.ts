import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { createEntityTables } from '../../platform/database/read-side';
import { unreachable } from '../../platform/domain/decider';
import type { Projection } from '../../platform/projections/projection';
import type { NetworksEvent } from '../domain/network.events';
import { NETWORKS_EVENT_TYPES } from '../events';
import { NETWORKS_ENTITIES, NETWORKS_PROJECTION } from './networks.entities';

/** `networks-<user id>` to the user id. */
const ownerOf = (streamId: string) => streamId.slice('networks-'.length);

/**
 * The networks read model: each customer's networks with their status and the cause of a
 * suspension, host and connected clients. Join codes stay in the log (only their hashes
 * are there, and nobody lists them).
 */
export const networksProjection: Projection = {
  name: NETWORKS_PROJECTION,
  // 2: the host's certificate (host_certificate_sha256).
  version: 2,
  handles: NETWORKS_EVENT_TYPES,

  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, NETWORKS_ENTITIES),

  async apply(db: PoolClient, schema: string, recorded: RecordedEvent) {
    if (!recorded.streamId.startsWith('networks-')) return;
    const event = recorded as unknown as NetworksEvent;
    const { networkId } = event.data;
    const set = (assignments: string, ...values: unknown[]) =>
      db.query(`UPDATE ${schema}.networks SET ${assignments} WHERE id = $1`, [networkId, ...values]);
    switch (event.type) {
      case 'NetworkCreated':
        await db.query(
          `INSERT INTO ${schema}.networks (id, user_id, name, model_id, model_name, status, created_at, created_position)
           VALUES ($1, $2, $3, $4, $5, 'active', $6, $7) ON CONFLICT (id) DO NOTHING`,
          [
            networkId,
            ownerOf(recorded.streamId),
            event.data.name,
            event.data.model.id,
            event.data.model.name,
            recorded.occurredAt,
            recorded.position,
          ],
        );
        return;
      case 'NetworkRenamed':
        await set('name = $2', event.data.name);
        return;
      case 'NetworkDeleted':
        await db.query(`DELETE FROM ${schema}.network_clients WHERE network_id = $1`, [networkId]);
        await db.query(`DELETE FROM ${schema}.networks WHERE id = $1`, [networkId]);
        return;
      case 'NetworkSuspended':
        await set(`status = 'suspended', suspension = $2`, JSON.stringify(event.data.cause));
        return;
      case 'NetworkResumed':
        await set(`status = 'active', suspension = NULL`);
        return;
      case 'HostAssigned':
        await set('host_device_id = $2, host_certificate_sha256 = $3', event.data.deviceId, event.data.certificateSha256 ?? null);
        return;
      case 'HostReleased':
        await set('host_device_id = NULL, host_certificate_sha256 = NULL');
        return;
      case 'JoinCodeIssued':
        return;
      case 'ClientJoined':
        await db.query(
          `INSERT INTO ${schema}.network_clients (network_id, device_id, joined_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
          [networkId, event.data.deviceId, recorded.occurredAt],
        );
        return;
      case 'ClientDisconnected':
      case 'ClientRemoved':
        await db.query(`DELETE FROM ${schema}.network_clients WHERE network_id = $1 AND device_id = $2`, [networkId, event.data.deviceId]);
        return;
      default:
        unreachable(event);
    }
  },
};
