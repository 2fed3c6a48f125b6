import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { createEntityTables } from '../../platform/database/read-side';
import type { Projection } from '../../platform/projections/projection';
import type { UserEventType } from '../../identity/events';
import type { DeviceEvent } from '../domain/device.decider';
import { DeviceEventCodec, type FieldVault } from '../infrastructure/device-event-codec';
import { DEVICES_ENTITIES, DEVICES_PROJECTION } from './devices.entities';

export { DEVICES_PROJECTION };

const DEVICE = 'device-';

/** Identity's event that takes a deleted account's devices with it. */
const USER_DELETED = 'UserDeleted' satisfies UserEventType;

/** The device events that change a row (a reused refresh token changes none). */
const DEVICE_CHANGES = [
  'DeviceRegistered',
  'DeviceRenamed',
  'DeviceSeen',
  'DeviceRevoked',
] as const satisfies readonly DeviceEvent['type'][];

/**
 * The devices read model: each device with its owner, name (decrypted), platform, version,
 * first and last seen, and whether and by whom it was revoked. A deleted account's devices
 * go with it (UserDeleted), as the users read model's row does.
 */
export function devicesProjection(vault: FieldVault): Projection {
  return {
    name: DEVICES_PROJECTION,
    version: 1,
    handles: [...DEVICE_CHANGES, USER_DELETED],
    createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, DEVICES_ENTITIES),

    async apply(db: PoolClient, schema: string, recorded: RecordedEvent) {
      const devices = `${schema}.devices`;
      if (recorded.type === USER_DELETED) {
        await db.query(`DELETE FROM ${devices} WHERE user_id = $1`, [recorded.streamId.slice('user-'.length)]);
        return;
      }
      if (!recorded.streamId.startsWith(DEVICE)) return;
      const id = recorded.streamId.slice(DEVICE.length);
      // The owner of later events is the row's: the codec decrypts with their key.
      const owner = async () =>
        (await db.query<{ user_id: string }>(`SELECT user_id FROM ${devices} WHERE id = $1`, [id])).rows[0]?.user_id ?? '';
      const event = await new DeviceEventCodec(vault, owner).decode(id, recorded);
      await applyDevice(db, devices, id, event, recorded);
    },
  };
}

async function applyDevice(db: PoolClient, devices: string, id: string, event: DeviceEvent, recorded: RecordedEvent): Promise<void> {
  switch (event.type) {
    case 'DeviceRegistered': {
      const { userId, name, platform, appVersion, via } = event.data;
      await db.query(
        `INSERT INTO ${devices} (id, user_id, name, platform, app_version, status, registered_via, first_seen_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, 'active', $6, $7, $7)`,
        [id, userId, name, platform, appVersion, via, recorded.occurredAt],
      );
      return;
    }
    case 'DeviceRenamed':
      await db.query(`UPDATE ${devices} SET name = $2 WHERE id = $1`, [id, event.data.name]);
      return;
    case 'DeviceSeen':
      await db.query(`UPDATE ${devices} SET platform = $2, app_version = $3, last_seen_at = $4 WHERE id = $1`, [
        id,
        event.data.platform,
        event.data.appVersion,
        event.data.at,
      ]);
      return;
    case 'DeviceRevoked': {
      const actor = (recorded.metadata as { actor?: { userId?: string | null } }).actor?.userId ?? null;
      await db.query(`UPDATE ${devices} SET status = 'revoked', revoked_at = $2, revoked_by = $3, revoked_by_user_id = $4 WHERE id = $1`, [
        id,
        recorded.occurredAt,
        event.data.by,
        actor,
      ]);
      return;
    }
    case 'DeviceRefreshTokenReused':
      return;
    default:
      event satisfies never;
  }
}
