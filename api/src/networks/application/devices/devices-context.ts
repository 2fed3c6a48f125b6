import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DeviceSessions, PersonalFields } from '../../../identity';
import { APP_CONFIG, type AppConfig } from '../../../platform/config/config';
import { DATABASE, type Database } from '../../../platform/database/database';
import { AggregateRepository } from '../../../platform/domain/aggregate-repository';
import { EVENT_STORE, type EventStore, type UniqueValue } from '../../../platform/event-store/event-store.port';
import { readYourWrites } from '../../../platform/projections/projection-waiter';
import { type DeviceCodeCommand, deviceCodeDecider, type DeviceCodeEvent, type DeviceCodeState } from '../../domain/device-code.decider';
import { type DeviceCommand, deviceDecider, type DeviceEvent, type DeviceState } from '../../domain/device.decider';
import { DeviceEventCodec } from '../../infrastructure/device-event-codec';
import { DeviceGrantLimits } from '../../infrastructure/device-grant-limits';
import { DEVICES_PROJECTION } from '../../projections/devices.entities';
import { DeviceClock } from './device-clock';

export const DEVICE_STREAM = 'device';
export const DEVICE_CODE_STREAM = 'devicecode';

const sha256 = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** Everything the device handlers share: the two repositories, their keys, the grant's limits. */
@Injectable()
export class DevicesContext {
  readonly devices: AggregateRepository<DeviceCommand, DeviceEvent, DeviceState>;
  readonly codes: AggregateRepository<DeviceCodeCommand, DeviceCodeEvent, DeviceCodeState>;
  readonly limits: DeviceGrantLimits;
  /** A device's owner never changes: remembered once read. */
  private readonly owners = new Map<string, string>();

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) readonly store: EventStore,
    private readonly personal: PersonalFields,
    readonly sessions: DeviceSessions,
    readonly clock: DeviceClock,
  ) {
    this.devices = new AggregateRepository(store, deviceDecider, DEVICE_STREAM, new DeviceEventCodec(personal, (id) => this.ownerOf(id)));
    this.codes = new AggregateRepository(store, deviceCodeDecider, DEVICE_CODE_STREAM);
    this.limits = new DeviceGrantLimits(database.pool);
  }

  /** The fingerprint as the log and the keys hold it: a blind index, never the value. */
  fingerprintHash(fingerprint: string): string {
    return this.personal.blindIndex('device-fingerprint', fingerprint);
  }

  /** One device per (user, fingerprint), claimed when it registers and released when revoked. */
  deviceKey(userId: string, fingerprintHash: string): UniqueValue {
    return { scope: 'device', value: this.personal.blindIndex('device', `${userId}\u0000${fingerprintHash}`) };
  }

  /** The device code is 256 random bits: its SHA-256 is enough to find it and useless to a reader. */
  deviceCodeKey(deviceCode: string): UniqueValue {
    return { scope: 'device-code', value: sha256(deviceCode) };
  }

  /** User codes are short (about 35 bits): keyed under the master key, so the index cannot be searched offline. */
  userCodeKey(userCode: string): UniqueValue {
    return { scope: 'device-user-code', value: this.personal.blindIndex('device-user-code', userCode) };
  }

  /** The id of the stream holding a unique value of this category, or null. */
  async idOwning(key: UniqueValue, category: string): Promise<string | null> {
    const stream = await this.store.ownerOf(key);
    return stream?.startsWith(`${category}-`) ? stream.slice(category.length + 1) : null;
  }

  /** Waits until the devices read model includes the write at `position` (read-your-writes). */
  async caughtUp(position: number): Promise<void> {
    await readYourWrites(this.database.pool, [DEVICES_PROJECTION], position);
  }

  private async ownerOf(deviceId: string): Promise<string> {
    let owner = this.owners.get(deviceId);
    if (!owner) {
      const [first] = await this.store.readStream(`${DEVICE_STREAM}-${deviceId}`, 1);
      owner = (first?.data as { userId?: string } | undefined)?.userId;
      if (!owner) throw new Error(`device ${deviceId} has no registration`);
      this.owners.set(deviceId, owner);
    }
    return owner;
  }
}
