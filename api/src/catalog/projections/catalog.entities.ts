import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { CatalogAuditEntry, DesktopFormat, DesktopPlatform, ModelPlan, ModelStatus } from '@meshwork/contracts';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';

/**
 * The catalog read model's tables, described once for TypeORM: the projection creates them
 * from this metadata (in whichever schema it fills, see createEntityTables) and the console's
 * lists query them through it. Properties are named as the columns, so a record is the row;
 * `bigint` columns read as strings (pg's choice: they may pass 2^53).
 */

export const CATALOG_PROJECTION = 'catalog';

/** Queries read the live schema; a rebuild fills rm_catalog__next and renames it to this. */
const schema = readModelSchema(CATALOG_PROJECTION);

/** A model that is uploading or published (failed and deleted ones are removed). */
@Entity({ schema, name: 'models' })
export class ModelRecord {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** Unique among live models (the append claims it; the index is the read side's guard). */
  @Index({ unique: true })
  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  display_name!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text' })
  version!: string;

  @Column({ type: 'text' })
  parameters!: string;

  @Column({ type: 'text' })
  architecture!: string;

  @Column({ type: 'text' })
  status!: ModelStatus;

  @Column({ type: 'jsonb' })
  allowed_plans!: ModelPlan[];

  @Column({ type: 'bigint', default: 0 })
  total_size!: string;

  @Column({ type: 'integer', default: 0 })
  parts_count!: number;

  /** The staff user who started the upload (the users read model's id), if known. */
  @Column({ type: 'text', nullable: true })
  uploaded_by!: string | null;

  @Column({ type: 'timestamptz' })
  uploaded_at!: Date;
}

/** One stored file of a model, in upload order (part_index). */
@Entity({ schema, name: 'model_files' })
export class ModelFileRecord {
  @PrimaryColumn({ type: 'text' })
  model_id!: string;

  @PrimaryColumn({ type: 'text' })
  name!: string;

  @Column({ type: 'bigint' })
  size!: string;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ type: 'integer' })
  part_index!: number;

  @Column({ type: 'text' })
  object_key!: string;
}

/** A desktop app release: one version, its flags; its files are in release_files. */
@Entity({ schema, name: 'releases' })
export class ReleaseRecord {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  version!: string;

  /** The latest notes given with one of its files. */
  @Column({ type: 'text' })
  release_notes!: string;

  @Column({ type: 'boolean', default: false })
  is_stable!: boolean;

  @Column({ type: 'boolean', default: false })
  is_active!: boolean;

  /** When its first file was uploaded. */
  @Column({ type: 'timestamptz' })
  released_at!: Date;

  /** Numeric version parts, so "newest" sorts 2.10.0 after 2.9.0. */
  @Column({ type: 'integer', array: true })
  version_key!: number[];
}

/** One file of a release: its platform and format (null: a file of another kind, never offered). */
@Entity({ schema, name: 'release_files' })
export class ReleaseFileRecord {
  @PrimaryColumn({ type: 'text' })
  release_id!: string;

  @PrimaryColumn({ type: 'text' })
  object_key!: string;

  @Column({ type: 'text' })
  platform!: DesktopPlatform;

  @Column({ type: 'text', nullable: true })
  format!: DesktopFormat | null;

  @Column({ type: 'text' })
  file_name!: string;

  @Column({ type: 'bigint' })
  size!: string;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ type: 'timestamptz' })
  uploaded_at!: Date;
}

/**
 * One download of a model file or the desktop app. The (user_id, downloaded_at) index serves
 * a user's history newest first by scanning backwards (TypeORM's @Index has no DESC).
 */
@Entity({ schema, name: 'downloads' })
@Index(['user_id', 'downloaded_at'])
export class DownloadRecord {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  kind!: 'desktop' | 'model';

  /** The model's name or the release's id. */
  @Index()
  @Column({ type: 'text' })
  ref!: string;

  @Column({ type: 'text' })
  version!: string;

  @Column({ type: 'text' })
  file_name!: string;

  @Column({ type: 'bigint' })
  size!: string;

  @Column({ type: 'timestamptz' })
  downloaded_at!: Date;
}

/** Staff actions on models and releases, from their events (spec "Admin audit logging"). */
@Entity({ schema, name: 'audit' })
export class CatalogAuditRecord {
  /** The event's position in the log. */
  @PrimaryColumn({ type: 'bigint' })
  position!: string;

  @Column({ type: 'text' })
  action!: CatalogAuditEntry['action'];

  @Column({ type: 'text' })
  resource!: CatalogAuditEntry['resource'];

  @Column({ type: 'text' })
  resource_id!: string;

  @Column({ type: 'text' })
  details!: string;

  @Column({ type: 'jsonb', nullable: true })
  old_data!: unknown;

  @Column({ type: 'jsonb', nullable: true })
  new_data!: unknown;

  @Column({ type: 'text', nullable: true })
  actor_user_id!: string | null;

  @Column({ type: 'text', nullable: true })
  ip!: string | null;

  @Column({ type: 'text', nullable: true })
  user_agent!: string | null;

  @Column({ type: 'timestamptz' })
  at!: Date;
}

/** Every table of the catalog read model. */
export const CATALOG_ENTITIES: ReadModelEntities = [
  ModelRecord,
  ModelFileRecord,
  ReleaseRecord,
  ReleaseFileRecord,
  DownloadRecord,
  CatalogAuditRecord,
];
