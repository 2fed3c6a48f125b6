import { Inject, Injectable } from '@nestjs/common';
import type { User } from '@meshwork/contracts';
import { readYourWrites } from '../../platform/projections/projection-waiter';
import { readModelSchema } from '../../platform/projections/projection';
import { DATABASE, type Database } from '../../platform/database/database';
import { USERS_PROJECTION } from '../projections/users.projection';
import { USER_PLANS, type UserPlan, type UserPlans } from './user-plans.port';

/** Identity's part of the user object, as the users read model holds it. */
interface AccountRow {
  id: string;
  username: string | null;
  email: string | null;
  first_name: string;
  last_name: string;
  is_staff: boolean;
  is_auditor: boolean;
  is_active: boolean;
  created_at: Date;
  last_login: Date | null;
}

/** A user with the plan part of their user object (UserPlans). */
export type UserRow = AccountRow & UserPlan;

/** What another context may show of a user by id: their username and email. */
export interface UserNames {
  username: string | null;
  email: string | null;
}

const SCHEMA = readModelSchema(USERS_PROJECTION);

/** The users read model's table of users: profile, status, plan and limit (see usersProjection). */
export const USERS_TABLE = `${SCHEMA}.users`;

/** An AccountRow's columns, from the users row `u`. */
const ACCOUNT_COLUMNS = `u.id, u.username, u.email, u.first_name, u.last_name, u.is_staff, u.is_auditor, u.is_active, u.created_at, u.last_login`;

/** Reads users from the users read model, with their plans (UserPlans), in the shape of the spec's user object. */
@Injectable()
export class UserDirectory {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(USER_PLANS) private readonly plans: UserPlans,
  ) {}

  async findById(id: string): Promise<User | null> {
    const { rows } = await this.database.pool.query<AccountRow>({
      name: 'identity_user_by_id',
      text: `SELECT ${ACCOUNT_COLUMNS} FROM ${USERS_TABLE} u WHERE u.id = $1`,
      values: [id],
    });
    return rows[0] ? toUser(await this.withPlan(rows[0])) : null;
  }

  /**
   * The active user whose session this is, while the session is open: what every
   * authenticated request needs, in one round trip and the plan's (and cached by
   * SignedInUsers). Staff rights come from here, not from the token, so losing them takes
   * effect at once.
   */
  async signedIn(sessionId: string, now: Date): Promise<(UserRow & { session_expires_at: Date }) | null> {
    const { rows } = await this.database.pool.query<AccountRow & { session_expires_at: Date }>({
      name: 'identity_signed_in_user',
      text: `SELECT ${ACCOUNT_COLUMNS}, s.expires_at AS session_expires_at FROM identity_sessions s JOIN ${USERS_TABLE} u ON u.id = s.user_id
              WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND u.is_active`,
      values: [sessionId, now],
    });
    return rows[0] ? this.withPlan(rows[0]) : null;
  }

  private async withPlan<R extends AccountRow>(row: R): Promise<R & UserPlan> {
    return { ...row, ...(await this.plans.of([row.id])).get(row.id)! };
  }

  /**
   * The username and email of each of these users, by id, for other contexts that name
   * people (the catalog's uploaders) without reading identity's tables. A deleted user is
   * not in the map.
   */
  async namesOf(ids: readonly string[]): Promise<Map<string, UserNames>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.database.pool.query<UserNames & { id: string }>({
      name: 'identity_user_names',
      text: `SELECT id, username, email FROM ${USERS_TABLE} WHERE id = ANY($1)`,
      values: [[...new Set(ids)]],
    });
    return new Map(rows.map(({ id, username, email }) => [id, { username, email }]));
  }

  /** Waits until the read model includes the write at `position`. */
  async caughtUpTo(position: number): Promise<void> {
    await readYourWrites(this.database.pool, [USERS_PROJECTION], position);
  }
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username ?? '',
    email: row.email ?? '',
    first_name: row.first_name,
    last_name: row.last_name,
    subscription_plan: row.plan_id,
    max_clients: row.max_clients,
    allowed_models: row.allowed_models,
    created_at: row.created_at.toISOString(),
    is_staff: row.is_staff,
    is_auditor: row.is_auditor,
  };
}
