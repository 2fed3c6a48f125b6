import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { readModelSchema } from '../../platform/projections/projection';
import type { ReadModelEntities } from '../../platform/database/read-side';
import type { FREE_PLAN_ID } from '../../billing';

/**
 * The users read model's tables, described once for TypeORM: the projection creates them
 * from this metadata (in whichever schema it is filling, see createEntityTables) and the
 * console queries them through it. Properties are named as the columns, so a record is the
 * row as stored; the spec's shapes are made from it where it is read.
 */

export const USERS_PROJECTION = 'users';

/** Queries read the live schema; a rebuild fills rm_users__next and renames it to this. */
const schema = readModelSchema(USERS_PROJECTION);

/** Billing's id of the free plan, checked against billing's own constant at compile time. */
export const FREE_PLAN: typeof FREE_PLAN_ID = 'free';

/** A user's profile, status, staff flag, sign-in times, console search text, plan and limit. */
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

  @Column({ type: 'text', default: FREE_PLAN })
  plan_id!: string;

  @Column({ type: 'double precision' })
  max_clients!: number;

  /** Whether billing has given the user entitlements; until then the free plan's limit applies. */
  @Column({ type: 'boolean', default: false })
  entitled!: boolean;
}

/** Each model's name, the plans it is open to, and whether it may be downloaded now. */
@Entity({ schema, name: 'model_access' })
export class ModelAccessRecord {
  @PrimaryColumn({ type: 'text' })
  model_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'jsonb' })
  plans!: string[];

  @Column({ type: 'boolean', default: false })
  downloadable!: boolean;
}

/** The free plan's limit, for users billing has given no entitlements: at most one row. */
@Entity({ schema, name: 'free_plan' })
@Check('one_row')
export class FreePlanRecord {
  /** Always true: the key that keeps the table to one row. */
  @PrimaryColumn({ type: 'boolean', default: true })
  one_row!: boolean;

  @Column({ type: 'double precision' })
  max_clients!: number;
}

/** Every table of the users read model. */
export const USERS_ENTITIES: ReadModelEntities = [UserRecord, ModelAccessRecord, FreePlanRecord];
