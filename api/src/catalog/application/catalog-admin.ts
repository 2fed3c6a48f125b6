import { AsyncResource } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import busboy from 'busboy';
import type { Request } from 'express';
import { type DesktopRelease, type ModelPlan, ReleaseFields, UPLOAD_LIMITS } from '../../../../contracts/src/catalog/catalog.contract';
import { DomainError, notFound, ruleBroken } from '../../platform/domain/errors';
import { ZodPipe } from '../../platform/http/validation';
import { alone } from '../../platform/database/transaction';
import { logger } from '../../platform/logging/logger';
import { readModelSchema } from '../../platform/projections/projection';
import { CATALOG_PROJECTION } from '../projections/catalog.projection';
import { CatalogContext, storageUnavailable } from './catalog-context';
import { CatalogQueries } from './catalog-queries';
import { ModelPlans } from './model-plans';

/** busboy could not read the body: a part header it refuses, or a body that ends inside a part. */
const unreadableForm = () => ruleBroken('The form could not be read: send the release as multipart/form-data, the file last.');

/** Staff actions on published models and desktop releases; each is a command on its stream. */
@Injectable()
export class CatalogAdmin {
  constructor(
    private readonly catalog: CatalogContext,
    private readonly queries: CatalogQueries,
    private readonly plans: ModelPlans,
  ) {}

  /** A model's card: exactly these plans, each a live plan or one the model already allows. */
  async changeAccess(modelId: string, allowedPlans: ModelPlan[], at: Date): Promise<number> {
    const model = await this.queries.adminModel(modelId);
    await this.plans.check(allowedPlans, 'allowed_plans', model?.allowedPlans);
    return this.setAccess(modelId, allowedPlans, false, at);
  }

  private async setAccess(modelId: string, allowedPlans: ModelPlan[], bulk: boolean, at: Date): Promise<number> {
    return (await this.catalog.models.execute(modelId, { type: 'ChangeAccess', at, allowedPlans, bulk })).position;
  }

  /**
   * The plan form's allowed models, which are the models' own plans: checks the names
   * and works out which models change, so the caller can check before it changes the plan
   * itself; `apply` then opens exactly the named models to the plan, each by a change of
   * that model's plans (an ACCESS entry in the audit log). Any plan may be given models:
   * the plan itself is checked by billing's command (it must exist, or be the one created).
   */
  async planModelsChange(planId: string, names: string[]): Promise<{ apply(at: Date): Promise<void> }> {
    const wanted = new Set(names);
    const models = (await this.queries.adminModels()).filter((m) => m.status !== 'processing');
    const unknown = [...wanted].filter((name) => !models.some((m) => m.name === name));
    if (unknown.length) throw ruleBroken(`There is no model named ${unknown.join(', ')}.`, 'allowed_models');
    const changes = models
      .filter((m) => wanted.has(m.name) !== m.allowedPlans.includes(planId))
      .map((m) => ({ id: m.id, plans: wanted.has(m.name) ? [...m.allowedPlans, planId] : m.allowedPlans.filter((p) => p !== planId) }));
    return {
      apply: async (at) => {
        let position = 0;
        for (const change of changes) position = Math.max(position, await this.setAccess(change.id, change.plans, false, at));
        await this.catalog.caughtUp(position);
      },
    };
  }

  /**
   * The matrix dialog's save: each model named is open to the plans checked for it and
   * closed to those unchecked; plans its keys leave out (an archived plan, no longer a
   * column) stay as they were. Every plan named must be a live one.
   */
  async setMatrix(matrix: Record<string, boolean>, at: Date): Promise<void> {
    const byModel = new Map<string, Map<ModelPlan, boolean>>();
    for (const [key, allowed] of Object.entries(matrix)) {
      const [modelId, plan] = key.split(':') as [string, ModelPlan];
      byModel.set(modelId, (byModel.get(modelId) ?? new Map<ModelPlan, boolean>()).set(plan, allowed));
    }
    await this.plans.check([...new Set([...byModel.values()].flatMap((plans) => [...plans.keys()]))], 'matrix');
    const current = new Map((await this.queries.adminModels()).map((m) => [m.id, m.allowedPlans]));
    let position = 0;
    for (const [modelId, named] of byModel) {
      const kept = (current.get(modelId) ?? []).filter((plan) => !named.has(plan));
      const plans = [...kept, ...[...named].filter(([, allowed]) => allowed).map(([plan]) => plan)];
      position = Math.max(position, await this.setAccess(modelId, plans, true, at));
    }
    await this.catalog.caughtUp(position);
  }

  async setStatus(modelId: string, active: boolean, at: Date): Promise<void> {
    const { position } = await this.catalog.models.execute(modelId, { type: 'SetStatus', at, active });
    await this.catalog.caughtUp(position);
  }

  /** Deletes the model and removes its files from storage (now, or by the sweeper). */
  async delete(modelId: string, at: Date): Promise<void> {
    const { state } = await this.catalog.models.load(modelId);
    if (state.status === 'none' || state.status === 'failed' || state.status === 'deleted') throw notFound();
    if (state.status === 'processing') throw ruleBroken('The model is still being uploaded.');
    const keys = state.files.map((f) => f.objectKey);
    const { position } = await this.catalog.models.execute(
      modelId,
      { type: 'Delete', at },
      { unique: () => ({ release: [this.catalog.nameKey(state.model.name)] }) },
    );
    await this.catalog.writing(modelId, keys);
    await this.catalog.discard(keys);
    await this.catalog.caughtUp(position);
  }

  /** A new desktop installer: version and notes first, then the file, streamed to storage. */
  uploadRelease(request: Request, at: Date): Promise<DesktopRelease> {
    return new Promise((resolve, reject) => {
      const fields: Record<string, string> = {};
      let done: Promise<DesktopRelease> | null = null;
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: request.headers, limits: { files: 1, fileSize: UPLOAD_LIMITS.maxFileBytes, fieldSize: 64 * 1024 } });
      } catch {
        reject(ruleBroken('Send the release as multipart/form-data.'));
        return;
      }
      parser.on('field', (name, value) => (fields[name] = value));
      // Bound to the request's async context, so the release's events name the staff member.
      parser.on(
        'file',
        AsyncResource.bind((_field: string, stream: Readable & { truncated?: boolean }, info: busboy.FileInfo) => {
          done = this.storeRelease(fields, path.basename(info.filename ?? 'installer.exe'), stream, at);
          done.catch(() => stream.resume());
        }),
      );
      parser.on(
        'close',
        AsyncResource.bind(() => {
          if (!done) return reject(ruleBroken('Choose the installer file.', 'file'));
          done.then(resolve, reject);
        }),
      );
      parser.on('error', () => reject(unreadableForm()));
      request.pipe(parser);
    });
  }

  async setRelease(version: string, changes: { is_stable?: boolean; is_active?: boolean }, at: Date): Promise<DesktopRelease> {
    let position = 0;
    if (changes.is_stable !== undefined)
      position = (await this.catalog.releases.execute(version, { type: 'MarkStable', at, stable: changes.is_stable })).position;
    if (changes.is_active !== undefined)
      position = Math.max(
        position,
        (await this.catalog.releases.execute(version, { type: 'SetActive', at, active: changes.is_active })).position,
      );
    await this.catalog.caughtUp(position);
    const release = await this.queries.release(version);
    if (!release) throw notFound();
    return release;
  }

  private async storeRelease(
    fields: Record<string, string>,
    fileName: string,
    stream: NodeJS.ReadableStream,
    at: Date,
  ): Promise<DesktopRelease> {
    // Listen before the first await: a body cut off inside the file errors the stream at once,
    // and an 'error' nobody listens to takes the process down.
    let broken: Error | null = null;
    stream.on('error', (error: Error) => (broken = error));
    const { version, release_notes: releaseNotes } = new ZodPipe(ReleaseFields).transform(fields);
    const { state } = await this.catalog.releases.load(version);
    if (state.status !== 'none') throw ruleBroken('This version has already been uploaded.', 'version');
    const objectKey = `releases/${version}/${fileName}`;
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        hash.update(chunk);
        size += chunk.length;
        next(null, chunk);
      },
    });
    stream.on('error', (error: Error) => measure.destroy(error));
    if (broken) throw unreadableForm();
    await this.catalog.writing(`release-${version}`, [objectKey]);
    try {
      await this.catalog.storage.put(objectKey, stream.pipe(measure));
    } catch (error) {
      await this.catalog.discard([objectKey]);
      throw error instanceof DomainError ? error : storageUnavailable();
    }
    const { position } = await this.catalog.releases.execute(version, {
      type: 'UploadRelease',
      at,
      version,
      releaseNotes,
      objectKey,
      fileName,
      size,
      sha256: hash.digest('hex'),
    });
    await this.catalog.kept([objectKey]);
    await this.catalog.caughtUp(position);
    return (await this.queries.release(version))!;
  }
}

/**
 * Removes objects that no model will use: left by a failed upload while storage was down,
 * or written before a crash (older than a day and never published). A model whose upload
 * started over a day ago and never finished (a resumable upload left behind) is failed
 * first, so it leaves the console and frees its name. Every instance schedules it each
 * minute; one at a time sweeps.
 */
@Injectable()
export class StorageSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  static readonly STALE_AFTER_MS = 24 * 3600 * 1000;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly catalog: CatalogContext) {}

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
    const { rows } = await this.catalog.database.pool.query<{ id: string; name: string; keys: string[] }>(
      `SELECT m.id, m.name, coalesce(array_agg(p.object_key) FILTER (WHERE p.object_key IS NOT NULL), '{}') AS keys
         FROM ${readModelSchema(CATALOG_PROJECTION)}.models m LEFT JOIN catalog_pending_objects p ON p.model_id = m.id
        WHERE m.status = 'processing' AND m.uploaded_at < $1 GROUP BY m.id, m.name LIMIT 100`,
      [startedBefore],
    );
    for (const model of rows) {
      const failed = await this.catalog.models
        .execute(
          model.id,
          { type: 'FailUpload', at: now, reason: 'The upload was not finished within a day.', objectKeys: model.keys },
          { unique: () => ({ release: [this.catalog.nameKey(model.name)] }) },
        )
        .catch((error: unknown) => logger.warn({ err: error, modelId: model.id }, 'could not fail an unfinished upload')); // finished or failed meanwhile
      if (!failed) continue;
      // The sweep's result is visible when it returns (the console's list, and its tests).
      await this.catalog.caughtUp(failed.position);
      await this.catalog.database.pool.query('DELETE FROM catalog_resumable_uploads WHERE model_id = $1', [model.id]);
      await this.catalog.discard(model.keys); // removes unfinished multipart uploads too
    }
  }
}
