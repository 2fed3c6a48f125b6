import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { SECRETS, type Secrets } from '../../platform/config/secrets';
import { DATABASE, type Database } from '../../platform/database/database';
import { AggregateRepository } from '../../platform/domain/aggregate-repository';
import { EVENT_STORE, type EventStore, type UniqueValue } from '../../platform/event-store/event-store.port';
import { MAILER, type Mailer } from '../../platform/mail/mailer';
import type { UserCommand } from '../domain/user.commands';
import { userDecider, type UserState } from '../domain/user.decider';
import type { UserEvent } from '../domain/user.events';
import { PersonalDataVault } from '../infrastructure/personal-data-vault';
import { SessionStore } from '../infrastructure/session-store';
import { SignedInUsers } from '../infrastructure/signed-in-users';
import { UserEventCodec } from '../infrastructure/user-event-codec';
import { UserDirectory } from './user-directory';

/** Everything the identity handlers share: the user repository and its collaborators. */
@Injectable()
export class IdentityContext implements OnModuleDestroy {
  readonly vault: PersonalDataVault;
  readonly users: AggregateRepository<UserCommand, UserEvent, UserState>;
  readonly sessions: SessionStore;
  readonly signedIn: SignedInUsers;

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    @Inject(SECRETS) readonly secrets: Secrets,
    @Inject(DATABASE) database: Database,
    @Inject(EVENT_STORE) readonly store: EventStore,
    @Inject(MAILER) readonly mailer: Mailer,
    readonly directory: UserDirectory,
  ) {
    this.vault = new PersonalDataVault(database.pool, secrets.dataEncryptionKey);
    this.users = new AggregateRepository(store, userDecider, 'user', new UserEventCodec(this.vault));
    this.signedIn = new SignedInUsers(database.pool, (sessionId, now) => directory.signedIn(sessionId, now));
    this.sessions = new SessionStore(database.pool, (userId) => this.signedIn.forget(userId));
  }

  async onModuleDestroy(): Promise<void> {
    await this.signedIn.close();
  }

  /** Email and username are unique case-insensitively; the index holds only blind values. */
  emailKey(email: string): UniqueValue {
    return { scope: 'user-email', value: this.vault.blindIndex('email', email.trim().toLowerCase()) };
  }

  usernameKey(username: string): UniqueValue {
    return { scope: 'user-username', value: this.vault.blindIndex('username', username.trim().toLowerCase()) };
  }

  /** The user id whose account has this email, if any. */
  async userIdByEmail(email: string): Promise<string | null> {
    const stream = await this.store.ownerOf(this.emailKey(email));
    return stream ? stream.slice('user-'.length) : null;
  }
}
