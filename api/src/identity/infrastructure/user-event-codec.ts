import type { EventMetadata, RecordedEvent } from '@meshwork/contracts';
import type { EventCodec } from '../../platform/domain/aggregate-repository';
import { PERSONAL_FIELDS, type UserEvent } from '../domain/user.events';
import type { PersonalDataVault } from './personal-data-vault';

const ACTOR_FIELDS = ['ip', 'userAgent'] as const;

/**
 * Stores a user's events with their personal fields, and the ip and user agent of the
 * request, encrypted under that user's key; reads them back in the clear while the key
 * exists, and as nulls after the account is deleted.
 */
export class UserEventCodec implements EventCodec<UserEvent> {
  constructor(private readonly vault: PersonalDataVault) {}

  async encode(userId: string, event: UserEvent, metadata: EventMetadata): Promise<{ data: unknown; metadata: EventMetadata }> {
    const data = await this.vault.encryptFields(userId, event.data, PERSONAL_FIELDS[event.type] ?? []);
    const actor = await this.vault.encryptFields(userId, metadata.actor, ACTOR_FIELDS);
    return { data, metadata: { ...metadata, actor } };
  }

  async decode(userId: string, event: RecordedEvent): Promise<UserEvent> {
    const type = event.type as UserEvent['type'];
    const data = await this.vault.decryptFields(userId, event.data as object, PERSONAL_FIELDS[type] ?? []);
    return { type, data } as UserEvent;
  }
}

/** `user-<id>` to `<id>`. */
export function userIdOf(streamId: string): string {
  return streamId.slice('user-'.length);
}
