import { Inject, Injectable } from '@nestjs/common';
import { readYourWrites } from '../../platform/projections/projection-waiter';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { DATABASE, type Database } from '../../platform/database/database';
import type { Migration } from '../../platform/database/migrations';
import { AggregateRepository } from '../../platform/domain/aggregate-repository';
import { unavailable } from '../../platform/domain/errors';
import { EVENT_STORE, type EventStore, type UniqueValue } from '../../platform/event-store/event-store.port';
import { logger } from '../../platform/logging/logger';
import { OBJECT_STORAGE, type ObjectStorage } from '../../platform/storage/object-storage';
import { type DownloadCommand, downloadDecider, type DownloadEvent } from '../domain/download.decider';
import { type ModelCommand, modelDecider, type ModelEvent, type ModelState } from '../domain/model.decider';
import { type ReleaseCommand, releaseDecider, type ReleaseEvent, type ReleaseState } from '../domain/release.decider';
import { CATALOG_PROJECTION } from '../projections/catalog.projection';

export const catalogMigrations: Migration[] = [
  {
    id: '0301-catalog-storage-bookkeeping',
    sql: `-- Objects being written, or left behind by a failed upload: the sweeper removes the
          -- abandoned ones (and any written before a crash) once storage answers again.
          CREATE TABLE catalog_pending_objects (
            object_key text PRIMARY KEY,
            model_id text NOT NULL,
            abandoned boolean NOT NULL DEFAULT false,
            created_at timestamptz NOT NULL DEFAULT now()
          );
          -- Resumable uploads in progress: one S3 multipart upload per file.
          CREATE TABLE catalog_resumable_uploads (
            id uuid PRIMARY KEY,
            model_id text NOT NULL,
            part_size bigint NOT NULL,
            files jsonb NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
          );`,
  },
];

/** Everything the catalog shares: repositories, storage and its bookkeeping. */
@Injectable()
export class CatalogContext {
  readonly models: AggregateRepository<ModelCommand, ModelEvent, ModelState>;
  readonly releases: AggregateRepository<ReleaseCommand, ReleaseEvent, ReleaseState>;
  readonly downloads: AggregateRepository<DownloadCommand, DownloadEvent, { ids: string[] }>;

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    @Inject(DATABASE) readonly database: Database,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(OBJECT_STORAGE) readonly storage: ObjectStorage,
  ) {
    this.models = new AggregateRepository(store, modelDecider, 'model');
    this.releases = new AggregateRepository(store, releaseDecider, 'release');
    this.downloads = new AggregateRepository(store, downloadDecider, 'downloads');
  }

  /** Model names are unique among live models, case-insensitively. */
  nameKey(name: string): UniqueValue {
    return { scope: 'model-name', value: name.trim().toLowerCase() };
  }

  /**
   * Read-your-writes for a catalog command: the catalog's read model alone, since it is the
   * only one kept from the catalog's events (a plan's models, in billing's answers, the user
   * object and the entitlement documents, are read from it: modelsOfPlans).
   */
  async caughtUp(position: number): Promise<void> {
    await readYourWrites(this.database.pool, [CATALOG_PROJECTION], position);
  }

  /** Notes objects about to be written, so none can be forgotten if the upload fails. */
  async writing(modelId: string, keys: string[]): Promise<void> {
    await this.database.pool.query(
      'INSERT INTO catalog_pending_objects (object_key, model_id) SELECT unnest($1::text[]), $2 ON CONFLICT (object_key) DO NOTHING',
      [keys, modelId],
    );
  }

  /** The objects were published: nothing to clean up any more. */
  async kept(keys: string[]): Promise<void> {
    await this.database.pool.query('DELETE FROM catalog_pending_objects WHERE object_key = ANY($1)', [keys]);
  }

  /**
   * Removes objects no model will use. If storage is down they stay marked abandoned and
   * the sweeper removes them later; either way none is left behind for good.
   */
  async discard(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.database.pool.query('UPDATE catalog_pending_objects SET abandoned = true WHERE object_key = ANY($1)', [keys]);
    try {
      await this.storage.remove(keys);
      await this.kept(keys);
    } catch (error) {
      logger.warn({ err: error, keys }, 'could not remove objects now; the sweeper will retry');
    }
  }
}

export const storageUnavailable = () => unavailable('File storage is unavailable, so nothing was saved. Please try again shortly.');
