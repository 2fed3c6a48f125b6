import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Kafka } from 'kafkajs';
import type { Pool } from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { SECRETS, type Secrets } from '../config/secrets';
import { DATABASE, type Database } from '../database/database';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { logger } from '../logging/logger';
import { sealKey } from '../event-store/chain/log-chain';
import { LogSealer } from '../event-store/chain/log-sealer';
import { KafkaRelay } from '../messaging/kafka-relay';
import { KAFKA } from '../platform.module';
import { OBJECT_STORAGE, type ObjectStorage } from '../storage/object-storage';
import type { ExclusiveFollower } from './exclusive-follower';
import type { Projection } from './projection';
import { ProjectionRunner, type RunnerOptions } from './projection-runner';

/** Optional: runner options (retry bounds, say) for every consumer; the defaults suit production. */
export const RUNNER_OPTIONS = Symbol('RunnerOptions');

/** The read models a process hosts: the app's registry (api/src/read-models.ts), given by whoever composes the process. */
export const READ_MODELS = Symbol('ReadModels');

/** Builds every read model on the process's pool and secrets (some decrypt personal data). */
export type ReadModels = (pool: Pool, secrets: Secrets) => Projection[];

/**
 * Starts a runner for every read model, the log's sealer, and the Kafka relay when Kafka is configured.
 * Any number of processes may host them: advisory locks keep one active per name.
 */
@Injectable()
export class ProjectionsHost implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly followers: ExclusiveFollower[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(KAFKA) private readonly kafka: Kafka | null,
    @Inject(SECRETS) private readonly secrets: Secrets,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Optional() @Inject(RUNNER_OPTIONS) private readonly runnerOptions: RunnerOptions = {},
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const options = { logger, ...this.runnerOptions };
    const runners = this.readModels(this.database.pool, this.secrets).map(
      (projection) => new ProjectionRunner(this.database.pool, this.store, projection, options),
    );
    // Every read model's tables exist before the app serves (queries join across them).
    await Promise.all(runners.map((runner) => runner.ensureTables()));
    for (const runner of runners) this.followers.push(runner.start());
    // The log's hash chain follows the appends like a read model (see log-chain.ts); its seals are anchored in the object store.
    this.followers.push(
      new LogSealer(this.database.pool, this.store, sealKey(this.secrets.dataEncryptionKey), { ...options, anchors: this.storage }).start(),
    );
    if (this.kafka) {
      this.followers.push(
        new KafkaRelay(this.database.pool, this.store, this.kafka, { ...options, topicPrefix: this.config.KAFKA_TOPIC_PREFIX }).start(),
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.followers.map((f) => f.stop()));
  }
}
