import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';

/**
 * The audit trail's tables, described once for TypeORM: the projection creates them from this
 * metadata (in whichever schema it fills, see createEntityTables). Properties are named as
 * the columns, so a record is the row; `position` is bigint, read as a string. Every index
 * ends in `position`, the order the trail is read in, newest first.
 */

export const AUDIT_TRAIL_PROJECTION = 'audit_trail';

/** Queries read the live schema; a rebuild fills rm_audit_trail__next and renames it to this. */
const schema = readModelSchema(AUDIT_TRAIL_PROJECTION);

/** One event of the log: who did what, when, to which resource, in which request. */
@Entity({ schema, name: 'entries' })
@Index(['resource_type', 'resource_id', 'position'])
@Index(['actor_user_id', 'position'])
@Index(['type', 'position'])
@Index(['occurred_at'])
export class AuditEntryRecord {
  @PrimaryColumn({ type: 'bigint' })
  position!: string;

  @Column({ type: 'uuid' })
  event_id!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  stream_id!: string;

  /** The stream's category (`user`, `plan`, `payment`, ...): what kind of thing changed. */
  @Column({ type: 'text' })
  resource_type!: string;

  /** The stream id without its category: which one. */
  @Column({ type: 'text' })
  resource_id!: string;

  @Column({ type: 'integer' })
  stream_version!: number;

  @Column({ type: 'timestamptz' })
  occurred_at!: Date;

  @Column({ type: 'text', nullable: true })
  actor_user_id!: string | null;

  @Column({ type: 'boolean' })
  actor_is_staff!: boolean;

  /** As in the log: encrypted under `key_owner`'s personal-data key on personal streams, decrypted when read. */
  @Column({ type: 'text', nullable: true })
  actor_ip!: string | null;

  @Column({ type: 'text', nullable: true })
  actor_user_agent!: string | null;

  /** The API token that made the request (the actor's `tokenId`, issue 35); null for a session. */
  @Column({ type: 'text', nullable: true })
  actor_token_id!: string | null;

  /** The user whose personal-data key encrypts this entry's ip and user agent, if any. */
  @Column({ type: 'text', nullable: true })
  key_owner!: string | null;

  /** The request's id: every event one request caused. */
  @Index()
  @Column({ type: 'text' })
  correlation_id!: string;

  @Column({ type: 'text', nullable: true })
  causation_id!: string | null;

  /** The event's data without secrets (hashes of passwords, tokens, codes) or encrypted personal fields. */
  @Column({ type: 'jsonb' })
  details!: Record<string, unknown>;
}

/** Each device's owner, from its registration: whose key encrypts the device stream's personal fields. */
@Entity({ schema, name: 'device_owners' })
export class DeviceOwnerRecord {
  @PrimaryColumn({ type: 'text' })
  device_id!: string;

  @Column({ type: 'text' })
  user_id!: string;
}

const HOUR_MS = 3_600_000;

/** The UTC hour a time falls in: the key of its entry_hours row. */
export function hourOf(time: Date): Date {
  return new Date(Math.floor(time.getTime() / HOUR_MS) * HOUR_MS);
}

/**
 * Per hour of occurred_at, the lowest and highest position of the entries in it. Positions
 * follow time only roughly (an event may be dated before ones already in the log), so a time
 * range's positions cannot be guessed from its ends: these rows bound them exactly, and a
 * time-filtered page walks the primary key between the bounds only (audit-trail.query.ts).
 */
@Entity({ schema, name: 'entry_hours' })
export class AuditEntryHourRecord {
  @PrimaryColumn({ type: 'timestamptz' })
  hour!: Date;

  @Column({ type: 'bigint' })
  min_position!: string;

  @Column({ type: 'bigint' })
  max_position!: string;
}

/** Every table of the audit trail read model. */
export const AUDIT_TRAIL_ENTITIES: ReadModelEntities = [AuditEntryRecord, DeviceOwnerRecord, AuditEntryHourRecord];
