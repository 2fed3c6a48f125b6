import { Inject, Injectable } from '@nestjs/common';
import type {
  AdminModel,
  AvailableModel,
  CatalogAuditEntry,
  DesktopRelease,
  DownloadHistory,
  ModelFile,
  ModelPlan,
  ModelStatus,
} from '@meshwork/contracts';
import { readModelSchema } from '../../platform/projections/projection';
import { USERS_PROJECTION } from '../../identity';
import { DATABASE, type Database } from '../../platform/database/database';
import { CATALOG_PROJECTION } from '../projections/catalog.projection';

const S = readModelSchema(CATALOG_PROJECTION);
const USERS = `${readModelSchema(USERS_PROJECTION)}.users`;

interface ModelRow {
  id: string;
  name: string;
  display_name: string;
  description: string;
  version: string;
  parameters: string;
  architecture: string;
  status: ModelStatus;
  allowed_plans: ModelPlan[];
  total_size: string;
  parts_count: number;
  uploaded_at: Date;
  uploaded_by_name: string | null;
  files: { name: string; size: string; sha256: string; part_index: number }[] | null;
}

export interface ReleaseRow {
  id: string;
  version: string;
  release_notes: string;
  object_key: string;
  file_name: string;
  size: string;
  is_stable: boolean;
  is_active: boolean;
  released_at: Date;
  downloads: number;
}

const MODEL_SELECT = `SELECT m.*, coalesce(u.username, u.email) AS uploaded_by_name,
    (SELECT json_agg(json_build_object('name', f.name, 'size', f.size, 'sha256', f.sha256, 'part_index', f.part_index) ORDER BY f.part_index)
       FROM ${S}.model_files f WHERE f.model_id = m.id) AS files
  FROM ${S}.models m LEFT JOIN ${USERS} u ON u.id = m.uploaded_by`;

const filesOf = (row: ModelRow): ModelFile[] =>
  (row.files ?? []).map((f) => ({ name: f.name, size: Number(f.size), sha256: f.sha256, part_index: f.part_index }));

function toAdminModel(row: ModelRow): AdminModel {
  const files = filesOf(row);
  const first = files[0]?.name ?? '';
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    version: row.version,
    fileName: first,
    fileSize: Number(row.total_size),
    fileType: first.includes('.') ? first.slice(first.lastIndexOf('.') + 1).toUpperCase() : '',
    uploadDate: row.uploaded_at.toISOString(),
    uploadedBy: row.uploaded_by_name ?? '',
    status: row.status,
    allowedPlans: row.allowed_plans,
    metadata: { description: row.description, parameters: row.parameters, architecture: row.architecture },
    files,
  };
}

function toRelease(row: ReleaseRow): DesktopRelease {
  return {
    id: row.id,
    version: row.version,
    releaseDate: row.released_at.toISOString(),
    fileSize: Math.round((Number(row.size) / (1024 * 1024)) * 100) / 100,
    isActive: row.is_active,
    releaseNotes: row.release_notes,
    downloadCount: row.downloads,
    isStable: row.is_stable,
  };
}

/** Reads of the catalog read model, in the shapes of the contract. */
@Injectable()
export class CatalogQueries {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async adminModels(): Promise<AdminModel[]> {
    const { rows } = await this.database.pool.query<ModelRow>(`${MODEL_SELECT} ORDER BY m.uploaded_at DESC, m.id`);
    return rows.map(toAdminModel);
  }

  async adminModel(id: string): Promise<AdminModel | null> {
    const { rows } = await this.database.pool.query<ModelRow>(`${MODEL_SELECT} WHERE m.id = $1`, [id]);
    return rows[0] ? toAdminModel(rows[0]) : null;
  }

  /** A published model by its name (active or not: callers decide what inactive means). */
  async modelByName(name: string): Promise<AdminModel | null> {
    const { rows } = await this.database.pool.query<ModelRow>(`${MODEL_SELECT} WHERE m.name = $1 AND m.status <> 'processing'`, [name]);
    return rows[0] ? toAdminModel(rows[0]) : null;
  }

  /** Active models a plan may use (the plan info's available_models). */
  async availableTo(planId: string): Promise<AvailableModel[]> {
    const { rows } = await this.database.pool.query<ModelRow>(
      `SELECT * FROM ${S}.models WHERE status = 'active' AND allowed_plans ? $1 ORDER BY display_name, id`,
      [planId],
    );
    return rows.map((row) => ({
      name: row.name,
      display_name: row.display_name,
      description: row.description,
      version: row.version,
      file_size: Number(row.total_size),
      block_count: row.parts_count,
    }));
  }

  async releases(): Promise<DesktopRelease[]> {
    return (await this.releaseRows('TRUE')).map(toRelease);
  }

  async release(id: string): Promise<DesktopRelease | null> {
    return (await this.releaseRows('r.id = $1', [id])).map(toRelease)[0] ?? null;
  }

  /** What customers download: the newest active stable release. */
  async currentRelease(): Promise<ReleaseRow | null> {
    return (await this.releaseRows('r.is_active AND r.is_stable', [], 'r.version_key DESC LIMIT 1'))[0] ?? null;
  }

  async downloadHistory(userId: string, now: Date): Promise<DownloadHistory> {
    const { rows } = await this.database.pool.query(
      `SELECT *, count(*) OVER () AS total, count(*) FILTER (WHERE downloaded_at >= $2) OVER () AS recent
         FROM ${S}.downloads WHERE user_id = $1 ORDER BY downloaded_at DESC, id LIMIT 50`,
      [userId, new Date(now.getTime() - 30 * 86_400_000)],
    );
    return {
      downloads: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        version: r.version,
        downloadDate: r.downloaded_at.toISOString(),
        status: 'completed' as const,
        fileSize: Number(r.size),
      })),
      total: Number(rows[0]?.total ?? 0),
      last_30_days: Number(rows[0]?.recent ?? 0),
    };
  }

  async audit(limit = 200): Promise<CatalogAuditEntry[]> {
    const { rows } = await this.database.pool.query(`SELECT * FROM ${S}.audit ORDER BY position DESC LIMIT $1`, [limit]);
    return rows.map((r) => ({
      id: String(r.position),
      action: r.action,
      resource: r.resource,
      resourceId: r.resource_id,
      details: r.details,
      oldData: r.old_data,
      newData: r.new_data,
      timestamp: r.at.toISOString(),
      adminId: r.actor_user_id,
      ipAddress: r.ip,
      userAgent: r.user_agent,
    }));
  }

  private async releaseRows(where: string, values: unknown[] = [], order = 'r.version_key DESC'): Promise<ReleaseRow[]> {
    const { rows } = await this.database.pool.query<ReleaseRow>(
      `SELECT r.*, (SELECT count(*)::int FROM ${S}.downloads d WHERE d.kind = 'desktop' AND d.ref = r.id) AS downloads
         FROM ${S}.releases r WHERE ${where} ORDER BY ${order}`,
      values,
    );
    return rows;
  }
}
