import { Inject, Injectable } from '@nestjs/common';
import type { AdminModel, AvailableModel, CatalogAuditEntry, DownloadHistory, ModelFile } from '@meshwork/contracts';
import { In, MoreThanOrEqual, type SelectQueryBuilder } from 'typeorm';
import { type UserNames, UserDirectory } from '../../identity';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';
import {
  CATALOG_ENTITIES,
  CatalogAuditRecord,
  DownloadRecord,
  ModelFileRecord,
  ModelRecord,
  ReleaseFileRecord,
  ReleaseRecord,
} from '../projections/catalog.entities';

/** A model with its files (in part order). */
type ModelWithFiles = ModelRecord & { files: ModelFileRecord[] };

/** A staff release with its files (oldest first) and how often it was downloaded. */
export type ReleaseWithFiles = ReleaseRecord & { downloads: number; files: ReleaseFileRecord[] };

/** A file customers may get from staff (for its format, the newest active stable release's), with that release. */
export type StaffFile = ReleaseFileRecord & { release: ReleaseRecord };

const filesOf = (row: ModelWithFiles): ModelFile[] =>
  row.files.map((f) => ({ name: f.name, size: Number(f.size), sha256: f.sha256, part_index: f.part_index }));

/** `uploader`: the uploader's names from identity, if the row names one still there. */
function toAdminModel(row: ModelWithFiles, uploader: UserNames | undefined): AdminModel {
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
    const models = await this.repository(ModelRecord);
    const { entities, raw } = await models
      .createQueryBuilder('m')
      .addSelect(
        (files) =>
          files.select('count(*)::int').from(ModelFileRecord, 'f').where('f.model_id = m.id').andWhere("lower(f.name) LIKE '%.onnx'"),
        'onnx_files',
      )
      .where("m.status = 'active'")
      .andWhere('m.allowed_plans ? :planId', { planId })
      .orderBy('m.display_name')
      .addOrderBy('m.id')
      // No joins: one raw row per entity, in the same order.
      .getRawAndEntities<{ onnx_files: number }>();
    return entities.map((model, i) => ({
      name: model.name,
      display_name: model.display_name,
      description: model.description,
      version: model.version,
      file_size: Number(model.total_size),
      block_count: raw[i]!.onnx_files > 0 ? raw[i]!.onnx_files : model.parts_count,
    }));
  }

  /** Staff releases, newest version first. */
  async releases(): Promise<ReleaseWithFiles[]> {
    return this.withFiles(await (await this.repository(ReleaseRecord)).find({ order: { version_key: 'DESC' } }));
  }

  async release(id: string): Promise<ReleaseWithFiles | null> {
    return (await this.withFiles(await (await this.repository(ReleaseRecord)).findBy({ id })))[0] ?? null;
  }

  /** What staff offer customers now: per format, the file of the newest active stable release that has one. */
  async currentStaffFiles(): Promise<StaffFile[]> {
    return (await this.repository<StaffFile>(ReleaseFileRecord))
      .createQueryBuilder('f')
      .distinctOn(['f.format'])
      .innerJoinAndMapOne('f.release', ReleaseRecord, 'r', 'r.id = f.release_id')
      .where('r.is_active AND r.is_stable AND f.format IS NOT NULL')
      .orderBy('f.format')
      .addOrderBy('r.version_key', 'DESC')
      .addOrderBy('f.uploaded_at', 'DESC')
      .getMany();
  }

  /** Desktop downloads recorded under `ref` (a release's id, or the built-in one's) of `version`. */
  async desktopDownloads(ref: string, version: string): Promise<number> {
    return (await this.repository(DownloadRecord)).countBy({ kind: 'desktop', ref, version });
  }

  /** The user's 50 newest downloads, how many they made in all and in the last 30 days. */
  async downloadHistory(userId: string, now: Date): Promise<DownloadHistory> {
    const downloads = await this.repository(DownloadRecord);
    const [[rows, total], recent] = await Promise.all([
      downloads.findAndCount({ where: { user_id: userId }, order: { downloaded_at: 'DESC', id: 'ASC' }, take: 50 }),
      downloads.countBy({ user_id: userId, downloaded_at: MoreThanOrEqual(new Date(now.getTime() - 30 * 86_400_000)) }),
    ]);
    return {
      downloads: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        version: r.version,
        downloadDate: r.downloaded_at.toISOString(),
        status: 'completed' as const,
        fileSize: Number(r.size),
      })),
      total,
      last_30_days: recent,
    };
  }

  /** The console's catalog audit log: the newest staff actions first. */
  async audit(limit = 200): Promise<CatalogAuditEntry[]> {
    const entries = (await this.repository(CatalogAuditRecord)).createQueryBuilder('a');
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
  private async models(): Promise<SelectQueryBuilder<ModelWithFiles>> {
    return (await this.repository<ModelWithFiles>(ModelRecord))
      .createQueryBuilder('m')
      .leftJoinAndMapMany('m.files', ModelFileRecord, 'f', 'f.model_id = m.id');
  }

  /** The rows as the contract's models, their uploaders named by identity (one lookup; a user deleted since is no longer there). */
  private async withUploaders(rows: ModelWithFiles[]): Promise<AdminModel[]> {
    const names = await this.users.namesOf(rows.flatMap((row) => (row.uploaded_by ? [row.uploaded_by] : [])));
    return rows.map((row) => toAdminModel(row, row.uploaded_by ? names.get(row.uploaded_by) : undefined));
  }

  /** The releases with their files (oldest first) and desktop download counts, in the same order. */
  private async withFiles(releases: ReleaseRecord[]): Promise<ReleaseWithFiles[]> {
    if (releases.length === 0) return [];
    const ids = releases.map((release) => release.id);
    const [files, counts] = await Promise.all([
      (await this.repository(ReleaseFileRecord)).find({ where: { release_id: In(ids) }, order: { uploaded_at: 'ASC', object_key: 'ASC' } }),
      (await this.repository(DownloadRecord))
        .createQueryBuilder('d')
        .select('d.ref', 'ref')
        .addSelect('count(*)::int', 'downloads')
        .where("d.kind = 'desktop'")
        .andWhere('d.ref IN (:...ids)', { ids })
        .groupBy('d.ref')
        .getRawMany<{ ref: string; downloads: number }>(),
    ]);
    return releases.map((release) => ({
      ...release,
      downloads: counts.find((count) => count.ref === release.id)?.downloads ?? 0,
      files: files.filter((file) => file.release_id === release.id),
    }));
  }

  private async repository<Row extends object>(entity: new () => Partial<Row>) {
    return (await readSide(this.database.pool, CATALOG_ENTITIES)).getRepository<Row>(entity);
  }
}
