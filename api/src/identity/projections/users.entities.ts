import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { readModelSchema } from '../../platform/projections/projection';
import type { ReadModelEntities } from '../../platform/database/read-side';

/**
 * The users read model's tables, described once for TypeORM: the projection creates them
 * from this metadata (in whichever schema it is filling, see createEntityTables) and the
 * console queries them through it. Properties are named as the columns, so a record is the
 * row as stored; the spec's shapes are made from it where it is read.
 */

export const USERS_PROJECTION = 'users';

/** Queries read the live schema; a rebuild fills rm_users__next and renames it to this. */
const schema = readModelSchema(USERS_PROJECTION);

/**
 * A user's profile, status, staff flag, sign-in times and console search text. The user
 * object's plan, limit and models are not identity's: see UserPlans.
 */
@Entity({ schema, name: 'users' })
export class UserRecord {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text', nullable: true })
  username!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text', default: '' })
  first_name!: string;

  @Column({ type: 'text', default: '' })
  last_name!: string;

  @Column({ type: 'boolean' })
  is_staff!: boolean;

  /** Read-only staff (see the user decider). */
  @Column({ type: 'boolean', default: false })
  is_auditor!: boolean;

  @Column({ type: 'boolean', default: true })
  is_active!: boolean;

  @Index()
  @Column({ type: 'timestamptz' })
  created_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  last_login!: Date | null;

  /** lower(username email first_name last_name), what the console's `q` filter matches. */
  @Column({ type: 'text', default: '' })
  search!: string;
}

/** Every table of the users read model. */
export const USERS_ENTITIES: ReadModelEntities = [UserRecord];
