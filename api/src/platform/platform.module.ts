import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Kafka } from 'kafkajs';
import { APP_CONFIG, type AppConfig } from './config/config';
import { loadSecrets, SECRETS, type Secrets } from './config/secrets';
import { DATABASE, type Database, openDatabase } from './database/database';
import { migrate, type Migration } from './database/migrations';
import { EVENT_STORE } from './event-store/event-store.port';
import { PostgresEventStore } from './event-store/postgres-event-store';
import { MAILER, mailerFor } from './mail/mailer';
import { kafkaFor } from './messaging/kafka';
import { relayStatusFor } from './messaging/kafka-relay';
import { RELAY_STATUS } from './messaging/relay-status.port';
import { PAYMENT_PROVIDER, paymentProviderFor } from './payments/payment-provider';
import { OBJECT_STORAGE } from './storage/object-storage';
import { objectStorageFor } from './storage/object-storage.factory';

export const KAFKA = Symbol('Kafka');

/** Closes what the platform opened, in reverse order, when the app shuts down. */
class PlatformShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
    await this.database.close();
  }
}

/**
 * The adapters every context uses: configuration, the database (migrated before anything
 * else starts), the event store, object storage, mail, payments and Kafka. Each adapter
 * is picked from the configuration: embedded stand-ins unless the real thing is set.
 * The schema's migrations come from whoever composes the process (api/src/migrations.ts):
 * they name the contexts' tables, and the platform imports no context.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, service: string, migrations: readonly Migration[]): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: SECRETS, useFactory: () => loadSecrets(config) },
        {
          provide: DATABASE,
          useFactory: async () => {
            const database = await openDatabase(config);
            await migrate(database.pool, migrations);
            return database;
          },
        },
        { provide: EVENT_STORE, inject: [DATABASE], useFactory: (database: Database) => new PostgresEventStore(database.pool) },
        { provide: OBJECT_STORAGE, inject: [SECRETS], useFactory: (secrets: Secrets) => objectStorageFor(config, secrets.jwtSecret) },
        { provide: MAILER, useFactory: () => mailerFor(config) },
        { provide: PAYMENT_PROVIDER, inject: [DATABASE], useFactory: (database: Database) => paymentProviderFor(config, database.pool) },
        { provide: KAFKA, useFactory: (): Kafka | null => kafkaFor(config, service) },
        { provide: RELAY_STATUS, inject: [KAFKA], useFactory: relayStatusFor },
        PlatformShutdown,
      ],
      exports: [APP_CONFIG, SECRETS, DATABASE, EVENT_STORE, OBJECT_STORAGE, MAILER, PAYMENT_PROVIDER, KAFKA, RELAY_STATUS],
    };
  }
}
