import { Inject, Injectable } from '@nestjs/common';
import type { AdminDevice } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../../platform/database/database';
import { readSide } from '../../../platform/database/read-side';
import { DEVICES_ENTITIES, DeviceRecord } from '../../projections/devices.entities';
import { DevicesContext } from './devices-context';

/** A device as the devices read model holds it, for the site and the console. */
export type DeviceView = AdminDevice;

const toView = (row: DeviceRecord): DeviceView => ({
  id: row.id,
  user_id: row.user_id,
  name: row.name ?? '',
  platform: row.platform,
  app_version: row.app_version,
  status: row.status,
  first_seen_at: row.first_seen_at.toISOString(),
  last_seen_at: row.last_seen_at.toISOString(),
  revoked_at: row.revoked_at?.toISOString() ?? null,
  revoked_by: row.revoked_by as DeviceView['revoked_by'],
});

/** What the rest of the api asks about devices: whose they are, and whether one may act. */
@Injectable()
export class DeviceDirectory {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly context: DevicesContext,
  ) {}

  /** A user's devices, newest first (from the read model): the site's list and the console's. */
  async devicesOf(userId: string): Promise<DeviceView[]> {
    const devices = (await readSide(this.database.pool, DEVICES_ENTITIES)).getRepository(DeviceRecord);
    const rows = await devices.find({ where: { user_id: userId }, order: { first_seen_at: 'DESC', id: 'ASC' } });
    return rows.map(toView);
  }

  /**
   * Whether the device exists, belongs to the user and is not revoked: read from the
   * device's own stream, not the read model, so a command acting for a device approved a
   * moment ago (or revoked a moment ago) gets the truth.
   */
  async ownedActiveDevice(userId: string, deviceId: string): Promise<boolean> {
    const { state } = await this.context.devices.load(deviceId);
    return state.status === 'active' && state.userId === userId;
  }
}
