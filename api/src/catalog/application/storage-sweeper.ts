import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { readModelSchema } from '../../platform/projections/projection';
import { alone } from '../../platform/database/transaction';
import { logger } from '../../platform/logging/logger';
import { CATALOG_PROJECTION } from '../projections/catalog.projection';
import type { ModelRecord } from '../projections/catalog.entities';
import { CatalogContext } from './catalog-context';
import { FailModelUpload } from './fail-model-upload.handler';

/**
 * Removes objects that no model will use: left by a failed upload while storage was down,
 * or written before a crash (older than a day and never published). A model whose upload
 * started over a day ago and never finished (a resumable upload left behind) is failed
 * first, by the same command a cancelled upload sends, so it leaves the console and frees
 * its name. Every instance schedules it each minute; one at a time sweeps.
 */
@Injectable()
export class StorageSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  static readonly STALE_AFTER_MS = 24 * 3600 * 1000;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly catalog: CatalogContext,
    private readonly commands: CommandBus,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => void this.sweep(new Date()).catch((error: unknown) => logger.warn({ err: error }, 'storage sweep failed')),
      60_000,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Returns how many objects it removed (0 when another instance is sweeping). */
  async sweep(now: Date): Promise<number> {
    return (await alone(this.catalog.database.pool, 'catalog-storage-sweep', () => this.sweepAlone(now))) ?? 0;
  }

  private async sweepAlone(now: Date): Promise<number> {
    const staleBefore = new Date(now.getTime() - StorageSweeper.STALE_AFTER_MS);
    await this.failUnfinishedUploads(now, staleBefore);
    const { rows } = await this.catalog.database.pool.query<{ object_key: string }>(
      'SELECT object_key FROM catalog_pending_objects WHERE abandoned OR created_at < $1 LIMIT 1000',
      [staleBefore],
    );
    const keys = rows.map((r) => r.object_key);
    if (keys.length === 0) return 0;
    await this.catalog.storage.remove(keys);
    await this.catalog.kept(keys);
    return keys.length;
  }

  private async failUnfinishedUploads(now: Date, startedBefore: Date): Promise<void> {
    // Raw SQL: it joins the catalog's write-side table of pending objects (no entity) and
    // gathers each model's keys with array_agg ... FILTER.
    const { rows } = await this.catalog.database.pool.query<Pick<ModelRecord, 'id' | 'name'> & { keys: string[] }>(
      `SELECT m.id, m.name, coalesce(array_agg(p.object_key) FILTER (WHERE p.object_key IS NOT NULL), '{}') AS keys
         FROM ${readModelSchema(CATALOG_PROJECTION)}.models m LEFT JOIN catalog_pending_objects p ON p.model_id = m.id
        WHERE m.status = 'processing' AND m.uploaded_at < $1 GROUP BY m.id, m.name LIMIT 100`,
      [startedBefore],
    );
    for (const model of rows) {
      // The command removes the objects too (unfinished multipart uploads included), and
      // waits for the read model, so the sweep's result is visible when it returns.
      const failed = await this.commands
        .execute(new FailModelUpload(model.id, model.name, model.keys, 'The upload was not finished within a day.', now))
        .then(
          () => true,
          (error: unknown) => logger.warn({ err: error, modelId: model.id }, 'could not fail an unfinished upload'),
        );
      if (failed) await this.catalog.database.pool.query('DELETE FROM catalog_resumable_uploads WHERE model_id = $1', [model.id]);
    }
  }
}
