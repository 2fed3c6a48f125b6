import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { Projection } from '../../platform/projections/projection';
import { EVERYONE, notifyIdentityChanged } from '../../platform/database/notifications';
import type { DownloadEvent } from '../domain/download.decider';
import type { ModelEvent } from '../domain/model.decider';
import { fileKind, type ReleaseEvent, type ReleaseFile } from '../domain/release.decider';
import { createEntityTables } from '../../platform/database/read-side';
import { DOWNLOAD_EVENT_TYPES, MODEL_EVENT_TYPES, type ModelEventType, RELEASE_EVENT_TYPES } from '../events';
import { CATALOG_ENTITIES, CATALOG_PROJECTION } from './catalog.entities';

export { CATALOG_PROJECTION };

const idOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/** Model events that make a model downloadable or not: every plan it is open to changes. */
const CHANGES_STATUS = new Set<string>(['ModelPublished', 'ModelDeactivated', 'ModelReactivated'] satisfies ModelEventType[]);
/** Model events that change which plans may download the model now, if it is active. */
const CHANGES_ACTIVE_MODEL = new Set<string>(['ModelAccessChanged', 'ModelProcessingFailed', 'ModelDeleted'] satisfies ModelEventType[]);

/**
 * The catalog read model: models with their files and plan access, desktop releases, and
 * every download. Models whose upload failed, and deleted ones, are gone from it. Its
 * `models` table is the one record of which models a plan opens (read by modelsOfPlans).
 */
export const catalogProjection: Projection = {
  name: CATALOG_PROJECTION,
  version: 3,
  handles: [...MODEL_EVENT_TYPES, ...RELEASE_EVENT_TYPES, ...DOWNLOAD_EVENT_TYPES],

  // Version 2: the tables come from catalog.entities.ts (the same columns, keys and indexes).
  // Version 3: a release holds several files (release_files), each with its platform and format.
  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, CATALOG_ENTITIES),

  async apply(db: PoolClient, schema: string, recorded: RecordedEvent) {
    const id = idOf(recorded.streamId);
    await recordAudit(db, schema, id, recorded);
    if (recorded.streamId.startsWith('model-')) {
      // Every user object lists its plan's downloadable models (read from this read model):
      // a change to them makes the caches of signed-in users forget them all, on commit.
      const changesDownloadable =
        CHANGES_STATUS.has(recorded.type) || (CHANGES_ACTIVE_MODEL.has(recorded.type) && (await isActive(db, schema, id)));
      await applyModel(db, schema, id, recorded as unknown as ModelEvent, recorded);
      if (changesDownloadable) await db.query(`SELECT ${notifyIdentityChanged(`'${EVERYONE}'`)}`);
      return;
    }
    if (recorded.streamId.startsWith('release-'))
      return applyRelease(db, schema, id, recorded as unknown as ReleaseEvent, recorded.occurredAt);
    if (recorded.streamId.startsWith('downloads-')) {
      const d = (recorded as unknown as DownloadEvent).data;
      await db.query(
        `INSERT INTO ${schema}.downloads (id, user_id, kind, ref, version, file_name, size, downloaded_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
        [d.downloadId, id, d.kind, d.ref, d.version, d.fileName, d.size, recorded.occurredAt],
      );
    }
  },
};

/** Whether the model may be downloaded now (before the event is applied). */
async function isActive(db: PoolClient, schema: string, modelId: string): Promise<boolean> {
  const { rows } = await db.query<{ status: string }>(`SELECT status FROM ${schema}.models WHERE id = $1`, [modelId]);
  return rows[0]?.status === 'active';
}

async function applyModel(db: PoolClient, schema: string, modelId: string, event: ModelEvent, recorded: RecordedEvent): Promise<void> {
  const models = `${schema}.models`;
  switch (event.type) {
    case 'ModelUploadStarted': {
      const m = event.data.model;
      const uploadedBy = (recorded.metadata as { actor?: { userId?: string | null } }).actor?.userId ?? null;
      await db.query(
        `INSERT INTO ${models} (id, name, display_name, description, version, parameters, architecture, status, allowed_plans, uploaded_by, uploaded_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'processing', $8, $9, $10)`,
        [
          modelId,
          m.name,
          m.displayName,
          m.description,
          m.version,
          m.parameters,
          m.architecture,
          JSON.stringify(event.data.allowedPlans),
          uploadedBy,
          recorded.occurredAt,
        ],
      );
      return;
    }
    case 'ModelFileStored': {
      const f = event.data;
      await db.query(
        `INSERT INTO ${schema}.model_files (model_id, name, size, sha256, part_index, object_key) VALUES ($1, $2, $3, $4, $5, $6)`,
        [modelId, f.name, f.size, f.sha256, f.partIndex, f.objectKey],
      );
      return;
    }
    case 'ModelPublished':
      await db.query(`UPDATE ${models} SET status = 'active', total_size = $2, parts_count = $3 WHERE id = $1`, [
        modelId,
        event.data.totalSize,
        event.data.partsCount,
      ]);
      return;
    case 'ModelDeactivated':
    case 'ModelReactivated':
      await db.query(`UPDATE ${models} SET status = $2 WHERE id = $1`, [
        modelId,
        event.type === 'ModelReactivated' ? 'active' : 'inactive',
      ]);
      return;
    case 'ModelAccessChanged':
      await db.query(`UPDATE ${models} SET allowed_plans = $2 WHERE id = $1`, [modelId, JSON.stringify(event.data.to)]);
      return;
    case 'ModelProcessingFailed':
    case 'ModelDeleted':
      await db.query(`DELETE FROM ${schema}.model_files WHERE model_id = $1`, [modelId]);
      await db.query(`DELETE FROM ${models} WHERE id = $1`, [modelId]);
      return;
  }
}

async function applyRelease(db: PoolClient, schema: string, releaseId: string, event: ReleaseEvent, at: Date): Promise<void> {
  const releases = `${schema}.releases`;
  switch (event.type) {
    case 'ReleaseUploaded': {
      const r = event.data;
      // The first file makes the release; a later one may bring newer notes.
      await db.query(
        `INSERT INTO ${releases} (id, version, release_notes, released_at, version_key) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET release_notes = COALESCE(NULLIF(EXCLUDED.release_notes, ''), ${releases}.release_notes)`,
        [releaseId, r.version, r.releaseNotes, at, r.version.split('.').map(Number)],
      );
      const { platform, format } = fileKind(r);
      await db.query(
        `INSERT INTO ${schema}.release_files (release_id, object_key, platform, format, file_name, size, sha256, uploaded_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [releaseId, r.objectKey, platform, format, r.fileName, r.size, r.sha256, at],
      );
      return;
    }
    case 'ReleaseMarkedStable':
    case 'ReleaseStableWithdrawn':
      await db.query(`UPDATE ${releases} SET is_stable = $2 WHERE id = $1`, [releaseId, event.type === 'ReleaseMarkedStable']);
      return;
    case 'ReleaseActivated':
    case 'ReleaseDeactivated':
      await db.query(`UPDATE ${releases} SET is_active = $2 WHERE id = $1`, [releaseId, event.type === 'ReleaseActivated']);
      return;
  }
}

type Audit = { action: string; resource: 'model' | 'release'; details: string; oldData?: unknown; newData?: unknown };

/** The audit entry an event makes, if it is a staff action worth one. */
function auditOf(recorded: RecordedEvent): Audit | null {
  const data = recorded.data as Record<string, unknown>;
  switch (recorded.type) {
    case 'ModelPublished':
      return {
        action: 'UPLOAD',
        resource: 'model',
        details: `Uploaded ${data.partsCount} file(s), ${data.totalSize} bytes`,
        newData: data,
      };
    case 'ModelAccessChanged':
      return {
        action: data.bulk ? 'BULK_UPDATE_ACCESS' : 'ACCESS',
        resource: 'model',
        details: `Plan access: ${(data.to as string[]).join(', ') || 'none'}`,
        oldData: { allowedPlans: data.from },
        newData: { allowedPlans: data.to },
      };
    case 'ModelDeleted':
      return { action: 'DELETE', resource: 'model', details: 'Model and its files deleted', oldData: data };
    case 'ModelDeactivated':
    case 'ModelReactivated':
      return { action: 'STATUS', resource: 'model', details: recorded.type === 'ModelDeactivated' ? 'Deactivated' : 'Reactivated' };
    case 'ReleaseUploaded':
      return {
        action: 'UPLOAD',
        resource: 'release',
        details: `Desktop release ${data.version}: ${data.fileName}`,
        newData: { version: data.version, ...fileKind(data as unknown as ReleaseFile), fileName: data.fileName, size: data.size },
      };
    case 'ReleaseMarkedStable':
    case 'ReleaseStableWithdrawn':
    case 'ReleaseActivated':
    case 'ReleaseDeactivated':
      return { action: 'STATUS', resource: 'release', details: recorded.type.replace('Release', '') };
    default:
      return null;
  }
}

async function recordAudit(db: PoolClient, schema: string, resourceId: string, recorded: RecordedEvent): Promise<void> {
  const audit = auditOf(recorded);
  if (!audit) return;
  const actor = (recorded.metadata as { actor?: { userId?: string | null; ip?: string | null; userAgent?: string | null } }).actor;
  await db.query(
    `INSERT INTO ${schema}.audit (position, action, resource, resource_id, details, old_data, new_data, actor_user_id, ip, user_agent, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      recorded.position,
      audit.action,
      audit.resource,
      resourceId,
      audit.details,
      audit.oldData === undefined ? null : JSON.stringify(audit.oldData),
      audit.newData === undefined ? null : JSON.stringify(audit.newData),
      actor?.userId ?? null,
      actor?.ip ?? null,
      actor?.userAgent ?? null,
      recorded.occurredAt,
    ],
  );
}
