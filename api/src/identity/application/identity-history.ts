import { Injectable } from '@nestjs/common';
import { type AggregateHistory, historyOf } from '../../platform/domain/aggregate-history';
import { IdentityContext } from './identity-context';

/**
 * What the audit context reads of identity, without its write side: the users' streams to
 * replay, who owns an email, and personal fields opened with their owner's key (null once
 * the account is erased and its key destroyed).
 */
@Injectable()
export class IdentityHistory {
  readonly aggregates: readonly AggregateHistory[];

  constructor(private readonly identity: IdentityContext) {
    this.aggregates = [historyOf(identity.users)];
  }

  /** The user id whose account has this email, if any. */
  userIdByEmail(email: string): Promise<string | null> {
    return this.identity.userIdByEmail(email);
  }

  /** A personal field as its owner's stream encrypted it, decrypted. */
  openPersonal(keyOwner: string, value: string): Promise<string | null> {
    return this.identity.vault.decrypt(keyOwner, value);
  }
}
