import { Inject, Injectable } from '@nestjs/common';
import type { ApiTokenScope, User } from '@meshwork/contracts';
import { In, type Repository } from 'typeorm';
import { readYourWrites } from '../../platform/projections/projection-waiter';
import { readModelSchema } from '../../platform/projections/projection';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';
import { USERS_ENTITIES, USERS_PROJECTION, UserRecord } from '../projections/users.entities';
import { USER_PLANS, type UserPlan, type UserPlans } from './user-plans.port';

/** The users row's columns that make identity's part of the user object (all but the console's search text). */
const ACCOUNT_COLUMNS = [
  'id',
  'username',
  'email',
  'first_name',
  'last_name',
  'is_staff',
  'is_auditor',
  'is_active',
  'created_at',
  'last_login',
] as const satisfies readonly (keyof UserRecord)[];

/** Identity's part of the user object: the users row without its search text. */
type Account = Pick<UserRecord, (typeof ACCOUNT_COLUMNS)[number]>;

/** A user's account with the plan part of their user object (UserPlans). */
export type UserWithPlan = Account & UserPlan;

/** The active user an API token speaks for, with the token's id and own scope (the plan narrows it per request). */
export type TokenUser = UserWithPlan & { token_id: string; token_scope: ApiTokenScope };

/** A token without expiry stays cached until invalidated or MAX_AGE_MS (SignedInUsers). */
const NEVER = new Date(8.64e15);

/** What another context may show of a user by id: their username and email. */
export type UserNames = Pick<UserRecord, 'username' | 'email'>;

/** The users read model's table of users (UserRecord), for counts an entity cannot express (monthly sign-ups). */
const USERS_TABLE = `${readModelSchema(USERS_PROJECTION)}.users`;

/** Reads users from the users read model, with their plans (UserPlans), in the shape of the spec's user object. */
@Injectable()
export class UserDirectory {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(USER_PLANS) private readonly plans: UserPlans,
  ) {}

  async findById(id: string): Promise<User | null> {
    const row = await (await this.users()).findOneBy({ id });
    return row ? toUser(await this.withPlan(row)) : null;
  }

  /**
   * The active user whose session this is, while the session is open: what every
   * authenticated request needs, in one round trip and the plan's (and cached by
   * SignedInUsers). Staff rights come from here, not from the token, so losing them takes
   * effect at once.
   */
  async signedIn(sessionId: string, now: Date): Promise<(UserWithPlan & { session_expires_at: Date }) | null> {
    // Raw SQL: a measured hot path (bench:identity, GET /profile/ against a constant endpoint),
    // a named prepared statement joining identity's own sessions table, which has no entity.
    const { rows } = await this.database.pool.query<Account & { session_expires_at: Date }>({
      name: 'identity_signed_in_user',
      text: `SELECT ${ACCOUNT_COLUMNS.map((column) => `u.${column}`).join(', ')}, s.expires_at AS session_expires_at
               FROM identity_sessions s JOIN ${USERS_TABLE} u ON u.id = s.user_id
              WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND u.is_active`,
      values: [sessionId, now],
    });
    return rows[0] ? this.withPlan(rows[0]) : null;
  }

  /**
   * The active user whose unrevoked, unexpired API token has this hash, with the token. A
   * deleted or deactivated account has no active users row, so its tokens stop with it.
   */
  async byApiToken(hash: string, now: Date): Promise<(TokenUser & { session_expires_at: Date }) | null> {
    // Raw SQL: the same hot path as signedIn (every token-authenticated request, cached by
    // SignedInUsers), joining identity's own api tokens table, which has no entity.
    const { rows } = await this.database.pool.query<
      Account & { token_id: string; token_scope: ApiTokenScope; token_expires_at: Date | null }
    >({
      name: 'identity_api_token_user',
      text: `SELECT ${ACCOUNT_COLUMNS.map((column) => `u.${column}`).join(', ')},
                    t.id AS token_id, t.scope AS token_scope, t.expires_at AS token_expires_at
               FROM identity_api_tokens t JOIN ${USERS_TABLE} u ON u.id = t.user_id
              WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $2) AND u.is_active`,
      values: [hash, now],
    });
    if (!rows[0]) return null;
    const { token_expires_at: expiresAt, ...row } = rows[0];
    return { ...(await this.withPlan(row)), session_expires_at: expiresAt ?? NEVER };
  }

  private async withPlan<R extends Account>(row: R): Promise<R & UserPlan> {
    return { ...row, ...(await this.plans.of([row.id])).get(row.id)! };
  }

  /**
   * The username and email of each of these users, by id, for other contexts that name
   * people (the catalog's uploaders) without reading identity's tables. A deleted user is
   * not in the map.
   */
  async namesOf(ids: readonly string[]): Promise<Map<string, UserNames>> {
    if (ids.length === 0) return new Map();
    const rows = await (
      await this.users()
    ).find({
      select: { id: true, username: true, email: true },
      where: { id: In([...new Set(ids)]) },
    });
    return new Map(rows.map(({ id, username, email }) => [id, { username, email }]));
  }

  /** The `limit` newest users, newest first (the console dashboard's recent sign-ups). */
  async newest(limit: number): Promise<Pick<UserRecord, 'id' | 'username' | 'email' | 'created_at'>[]> {
    return (await this.users()).find({
      select: { id: true, username: true, email: true, created_at: true },
      order: { created_at: 'DESC' },
      take: limit,
    });
  }

  /** How many users there are, and how many signed up this calendar month and the one before (the console dashboard's growth). */
  async signUps(): Promise<{ total: number; thisMonth: number; lastMonth: number }> {
    // Raw SQL: counts per month (FILTER, date_trunc), figures an entity cannot express.
    const { rows } = await this.database.pool.query<{ total: number; this_month: number; last_month: number }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE created_at >= date_trunc('month', now()))::int AS this_month,
              count(*) FILTER (WHERE created_at >= date_trunc('month', now()) - interval '1 month'
                                 AND created_at < date_trunc('month', now()))::int AS last_month
         FROM ${USERS_TABLE}`,
    );
    return { total: rows[0]!.total, thisMonth: rows[0]!.this_month, lastMonth: rows[0]!.last_month };
  }

  /** Waits until the read model includes the write at `position`. */
  async caughtUpTo(position: number): Promise<void> {
    await readYourWrites(this.database.pool, [USERS_PROJECTION], position);
  }

  private async users(): Promise<Repository<UserRecord>> {
    return (await readSide(this.database.pool, USERS_ENTITIES)).getRepository(UserRecord);
  }
}

export function toUser(row: UserWithPlan): User {
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
