import { Injectable } from '@nestjs/common';
import { IdentityContext } from './identity-context';

/**
 * What another context may do with identity's personal-data vault, for personal data it keeps
 * itself (a device's name, ip and user agent): encrypt and decrypt fields under their owner's
 * key, so deleting the account shreds them with identity's own, and make a blind index (HMAC
 * under the master key) to claim a value as unique without storing it. Keys are made and
 * destroyed by identity alone, with the account.
 */
@Injectable()
export class PersonalFields {
  constructor(private readonly identity: IdentityContext) {}

  encryptFields<T extends object>(userId: string, data: T, fields: readonly string[]): Promise<T> {
    return this.identity.vault.encryptFields(userId, data, fields);
  }

  decryptFields<T extends object>(userId: string, data: T, fields: readonly string[]): Promise<T> {
    return this.identity.vault.decryptFields(userId, data, fields);
  }

  blindIndex(scope: string, value: string): string {
    return this.identity.vault.blindIndex(scope, value);
  }
}
