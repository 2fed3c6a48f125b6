import type { EventMetadata, RecordedEvent } from '@meshwork/contracts';
import type { EventCodec } from '../../platform/domain/aggregate-repository';
import { DEVICE_PERSONAL_FIELDS, type DeviceEvent } from '../domain/device.decider';

/** The slice of identity's PersonalDataVault this codec uses (the vault is identity's). */
export interface FieldVault {
  encryptFields<T extends object>(userId: string, data: T, fields: readonly string[]): Promise<T>;
  decryptFields<T extends object>(userId: string, data: T, fields: readonly string[]): Promise<T>;
}

const ACTOR_FIELDS = ['ip', 'userAgent'] as const;

/**
 * Stores a device's events with its name, and the request's ip and user agent, encrypted
 * under the owner's key, like identity's own events: deleting the account shreds them too.
 * The owner is named in the stream's first event (DeviceRegistered, in the clear); `ownerOf`
 * finds it for the later ones.
 */
export class DeviceEventCodec implements EventCodec<DeviceEvent> {
  constructor(
    private readonly vault: FieldVault,
    private readonly ownerOf: (deviceId: string) => Promise<string>,
  ) {}

  async encode(deviceId: string, event: DeviceEvent, metadata: EventMetadata): Promise<{ data: unknown; metadata: EventMetadata }> {
    const userId = event.type === 'DeviceRegistered' ? event.data.userId : await this.ownerOf(deviceId);
    const data = await this.vault.encryptFields(userId, event.data, DEVICE_PERSONAL_FIELDS[event.type] ?? []);
    const actor = await this.vault.encryptFields(userId, metadata.actor, ACTOR_FIELDS);
    return { data, metadata: { ...metadata, actor } };
  }

  async decode(deviceId: string, recorded: RecordedEvent): Promise<DeviceEvent> {
    const type = recorded.type as DeviceEvent['type'];
    const raw = recorded.data as { userId?: string };
    const userId = type === 'DeviceRegistered' ? raw.userId! : await this.ownerOf(deviceId);
    const data = await this.vault.decryptFields(userId, raw, DEVICE_PERSONAL_FIELDS[type] ?? []);
    return { type, data } as DeviceEvent;
  }
}
