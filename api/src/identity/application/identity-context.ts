import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { SECRETS, type Secrets } from '../../platform/config/secrets';
import { DATABASE, type Database } from '../../platform/database/database';
import { AggregateRepository } from '../../platform/domain/aggregate-repository';
import { EVENT_STORE, type EventStore, type UniqueValue } from '../../platform/event-store/event-store.port';
import { MAILER, type Mailer } from '../../platform/mail/mailer';
import { type ApiTokenCommand, apiTokenDecider, type ApiTokenEvent, type ApiTokenState } from '../domain/api-token.decider';
import type { UserCommand } from '../domain/user.commands';
import { userDecider, type UserState } from '../domain/user.decider';
import type { UserEvent } from '../domain/user.events';
import { PersonalDataVault } from '../infrastructure/personal-data-vault';
import { ApiRateLimits } from '../infrastructure/api-rate-limits';
import { ApiTokenStore } from '../infrastructure/api-token-store';
import { SessionStore } from '../infrastructure/session-store';
import { SignedInUsers } from '../infrastructure/signed-in-users';
import { UserEventCodec } from '../infrastructure/user-event-codec';
import { type TokenUser, UserDirectory } from './user-directory';

/** API token keys in the signed-in cache; session ids are uuids, so the two never meet. */
const TOKEN_KEY = 'apitoken:';

/** Everything the identity handlers share: the user repository and its collaborators. */
@Injectable()
export class IdentityContext implements OnModuleDestroy {
  readonly vault: PersonalDataVault;
  readonly users: AggregateRepository<UserCommand, UserEvent, UserState>;
  readonly sessions: SessionStore;
  /**
   * Open sessions' users and API tokens' users (keys `apitoken:<hash>`), in one cache with one
   * LISTEN connection: a token is forgotten with its user on any change, as a session is.
   */
  readonly signedIn: SignedInUsers;
  readonly apiTokens: ApiTokenStore;
  readonly tokenStreams: AggregateRepository<ApiTokenCommand, ApiTokenEvent, ApiTokenState>;
  readonly rateLimits: ApiRateLimits;

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
    this.signedIn = new SignedInUsers(database.pool, (key, now) =>
      key.startsWith(TOKEN_KEY) ? directory.byApiToken(key.slice(TOKEN_KEY.length), now) : directory.signedIn(key, now),
    );
    this.sessions = new SessionStore(database.pool, (userId) => this.signedIn.forget(userId));
    this.apiTokens = new ApiTokenStore(database.pool, (userId) => this.signedIn.forget(userId));
    this.tokenStreams = new AggregateRepository(store, apiTokenDecider, 'apitoken');
    this.rateLimits = new ApiRateLimits(database.pool);
  }

  async onModuleDestroy(): Promise<void> {
    await this.signedIn.close();
  }

  /** The active user of the unrevoked, unexpired API token with this hash, and the token, or null. */
  async tokenUser(hash: string, now: Date): Promise<TokenUser | null> {
    // The cache holds what the lookup for this key returned: byApiToken's TokenUser.
    return (await this.signedIn.of(`${TOKEN_KEY}${hash}`, now)) as TokenUser | null;
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
