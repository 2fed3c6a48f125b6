import { Inject, Injectable } from '@nestjs/common';
import type {
  AdminModel,
  AvailableModel,
  CatalogAuditEntry,
  DesktopFormat,
  DesktopPlatform,
  DownloadHistory,
  ModelFile,
} from '@meshwork/contracts';
import type { SelectQueryBuilder } from 'typeorm';
import { readModelSchema } from '../../platform/projections/projection';
import { type UserNames, UserDirectory } from '../../identity';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';
import { CATALOG_ENTITIES, CATALOG_PROJECTION, CatalogAuditRecord, ModelFileRecord, ModelRecord } from '../projections/catalog.entities';

const S = readModelSchema(CATALOG_PROJECTION);

/** A model row with its files (in part order). */
type ModelRow = ModelRecord & { files: ModelFileRecord[] };

/** A stored file of a staff release (size: bigint as pg reads it, a string). */
export interface ReleaseFileRow {
  platform: DesktopPlatform;
  /** Null: a file of another kind, uploaded before releases named a platform; never offered. */
  format: DesktopFormat | null;
  file_name: string;
  object_key: string;
  size: string | number;
  sha256: string;
}

/** A staff release with its files (oldest first) and how often it was downloaded. */
export interface ReleaseRow {
  id: string;
  version: string;
  release_notes: string;
  is_stable: boolean;
  is_active: boolean;
  released_at: Date;
  downloads: number;
  files: ReleaseFileRow[];
}

/** A file customers may get from staff: for its format, the newest active stable release's. */
export type StaffFileRow = ReleaseFileRow & { release_id: string; version: string; format: DesktopFormat };

const filesOf = (row: ModelRow): ModelFile[] =>
  row.files.map((f) => ({ name: f.name, size: Number(f.size), sha256: f.sha256, part_index: f.part_index }));

/** `uploader`: the uploader's names from identity, if the row names one still there. */
function toAdminModel(row: ModelRow, uploader: UserNames | undefined): AdminModel {
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
    uploadedBy: uploader?.username ?? uploader?.email ?? '',
    status: row.status,
    allowedPlans: row.allowed_plans,
    metadata: { description: row.description, parameters: row.parameters, architecture: row.architecture },
    files,
  };
}

/** Reads of the catalog read model, in the shapes of the contract. */
@Injectable()
export class CatalogQueries {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly users: UserDirectory,
  ) {}

  /** The console's models list (GET /models/admin/): every model, newest first. */
  async adminModels(): Promise<AdminModel[]> {
    const models = (await this.models()).orderBy('m.uploaded_at', 'DESC').addOrderBy('m.id').addOrderBy('f.part_index');
    return this.withUploaders(await models.getMany());
  }

  async adminModel(id: string): Promise<AdminModel | null> {
    const model = await (await this.models()).where('m.id = :id', { id }).orderBy('f.part_index').getOne();
    return model ? (await this.withUploaders([model]))[0]! : null;
  }

  /** A published model by its name (active or not: callers decide what inactive means). */
  async modelByName(name: string): Promise<AdminModel | null> {
    const model = await (
      await this.models()
    )
      .where('m.name = :name', { name })
      .andWhere("m.status <> 'processing'")
      .orderBy('f.part_index')
      .getOne();
    return model ? (await this.withUploaders([model]))[0]! : null;
  }

  /** Active models a plan may use (the plan info's available_models). */
  async availableTo(planId: string): Promise<AvailableModel[]> {
    // A Meshwork model package's blocks are its ONNX files (model.json and tokenizer.json ride
    // along); any other model's blocks are all its files.
    const { rows } = await this.database.pool.query<ModelRow & { onnx_files: number }>(
      `SELECT m.*, (SELECT count(*)::int FROM ${S}.model_files f WHERE f.model_id = m.id AND lower(f.name) LIKE '%.onnx') AS onnx_files
         FROM ${S}.models m WHERE m.status = 'active' AND m.allowed_plans ? $1 ORDER BY m.display_name, m.id`,
      [planId],
    );
    return rows.map((row) => ({
      name: row.name,
      display_name: row.display_name,
      description: row.description,
      version: row.version,
      file_size: Number(row.total_size),
      block_count: row.onnx_files > 0 ? row.onnx_files : row.parts_count,
    }));
  }

  /** Staff releases, newest version first. */
  releases(): Promise<ReleaseRow[]> {
    return this.releaseRows('TRUE');
  }

  async release(id: string): Promise<ReleaseRow | null> {
    return (await this.releaseRows('r.id = $1', [id]))[0] ?? null;
  }

  /** What staff offer customers now: per format, the file of the newest active stable release that has one. */
  async currentStaffFiles(): Promise<StaffFileRow[]> {
    const { rows } = await this.database.pool.query<StaffFileRow>(
      `SELECT DISTINCT ON (f.format) f.*, r.version
         FROM ${S}.release_files f JOIN ${S}.releases r ON r.id = f.release_id
        WHERE r.is_active AND r.is_stable AND f.format IS NOT NULL
        ORDER BY f.format, r.version_key DESC, f.uploaded_at DESC`,
    );
    return rows;
  }

  /** Desktop downloads recorded under `ref` (a release's id, or the built-in one's) of `version`. */
  async desktopDownloads(ref: string, version: string): Promise<number> {
    const { rows } = await this.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${S}.downloads WHERE kind = 'desktop' AND ref = $1 AND version = $2`,
      [ref, version],
    );
    return rows[0]!.n;
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

  /** The console's catalog audit log: the newest staff actions first. */
  async audit(limit = 200): Promise<CatalogAuditEntry[]> {
    const entries = (await readSide(this.database.pool, CATALOG_ENTITIES)).getRepository(CatalogAuditRecord).createQueryBuilder('a');
    const rows = await entries.orderBy('a.position', 'DESC').limit(limit).getMany();
    return rows.map((r) => ({
      id: r.position,
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

  /** Models with their files. */
  private async models(): Promise<SelectQueryBuilder<ModelRow>> {
    return (await readSide(this.database.pool, CATALOG_ENTITIES))
      .getRepository<ModelRow>(ModelRecord)
      .createQueryBuilder('m')
      .leftJoinAndMapMany('m.files', ModelFileRecord, 'f', 'f.model_id = m.id');
  }

  /** The rows as the contract's models, their uploaders named by identity (one lookup; a user deleted since is no longer there). */
  private async withUploaders(rows: ModelRow[]): Promise<AdminModel[]> {
    const names = await this.users.namesOf(rows.flatMap((row) => (row.uploaded_by ? [row.uploaded_by] : [])));
    return rows.map((row) => toAdminModel(row, row.uploaded_by ? names.get(row.uploaded_by) : undefined));
  }

  private async releaseRows(where: string, values: unknown[] = []): Promise<ReleaseRow[]> {
    const { rows } = await this.database.pool.query<ReleaseRow>(
      `SELECT r.*,
              (SELECT count(*)::int FROM ${S}.downloads d WHERE d.kind = 'desktop' AND d.ref = r.id) AS downloads,
              COALESCE((SELECT json_agg(f ORDER BY f.uploaded_at, f.object_key) FROM ${S}.release_files f WHERE f.release_id = r.id), '[]') AS files
         FROM ${S}.releases r WHERE ${where} ORDER BY r.version_key DESC`,
      values,
    );
    return rows;
  }
}
