import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';

/**
 * The audit trail's table, described once for TypeORM: the projection creates it from this
 * metadata (in whichever schema it fills, see createEntityTables). Properties are named as
 * the columns, so a record is the row; `position` is bigint, read as a string.
 */

export const AUDIT_TRAIL_PROJECTION = 'audit_trail';

/** Queries read the live schema; a rebuild fills rm_audit_trail__next and renames it to this. */
const schema = readModelSchema(AUDIT_TRAIL_PROJECTION);

/** One event of the log: who did what, when, to which stream, in which request. */
@Entity({ schema, name: 'entries' })
@Index(['stream_id', 'stream_version'])
@Index(['actor_user_id', 'occurred_at'])
@Index(['type', 'occurred_at'])
export class AuditEntryRecord {
  @PrimaryColumn({ type: 'bigint' })
  position!: string;

  @Column({ type: 'uuid' })
  event_id!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  stream_id!: string;

  @Column({ type: 'integer' })
  stream_version!: number;

  @Column({ type: 'timestamptz' })
  occurred_at!: Date;

  @Column({ type: 'text', nullable: true })
  actor_user_id!: string | null;

  @Column({ type: 'boolean' })
  actor_is_staff!: boolean;

  /** The request's id: every event one request caused. */
  @Index()
  @Column({ type: 'text' })
  correlation_id!: string;

  @Column({ type: 'text', nullable: true })
  causation_id!: string | null;
}

/** Every table of the audit trail read model. */
export const AUDIT_TRAIL_ENTITIES: ReadModelEntities = [AuditEntryRecord];
