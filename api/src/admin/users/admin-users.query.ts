import { Inject, Injectable } from '@nestjs/common';
import type { AdminUser } from '@meshwork/contracts';
import { USERS_TABLE, type UserRow } from '../../identity';
import { notFound } from '../../platform/domain/errors';
import { DATABASE, type Database } from '../../platform/database/database';
import type { ListQuery } from '../../platform/http/react-admin-list';

/** The console lists no entitlement lists: a row of the users table is all it needs. */
type Row = Omit<UserRow, 'allowed_models'>;

/** Reads the users read model for the console: search, sort, page. */
@Injectable()
export class AdminUsers {
  static readonly sortable = ['username', 'email', 'first_name', 'last_name', 'created_at', 'last_login', 'is_active'] as const;

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** `filter.q` matches username, email or full name, ignoring case; `filter.is_active` narrows. */
  async list(query: ListQuery): Promise<{ rows: AdminUser[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (typeof query.filter.q === 'string' && query.filter.q.trim()) {
      params.push(
        `%${query.filter.q
          .trim()
          .toLowerCase()
          .replace(/[\\%_]/g, '\\$&')}%`,
      );
      where.push(`search LIKE $${params.length}`);
    }
    if (typeof query.filter.is_active === 'boolean') {
      params.push(query.filter.is_active);
      where.push(`is_active = $${params.length}`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    // sortField is checked against `sortable` before it gets here.
    const order = `${query.sortField} ${query.sortOrder === 'ASC' ? 'ASC' : 'DESC'} NULLS LAST, id`;
    const [{ rows }, count] = await Promise.all([
      this.database.pool.query<Row>(
        `SELECT * FROM ${USERS_TABLE} ${clause} ORDER BY ${order} OFFSET ${query.offset} LIMIT ${query.limit}`,
        params,
      ),
      this.database.pool.query<{ total: string }>(`SELECT count(*) AS total FROM ${USERS_TABLE} ${clause}`, params),
    ]);
    return { rows: rows.map(toAdminUser), total: Number(count.rows[0]!.total) };
  }

  async get(id: string): Promise<AdminUser> {
    const { rows } = await this.database.pool.query<Row>(`SELECT * FROM ${USERS_TABLE} WHERE id = $1`, [id]);
    if (!rows[0]) throw notFound();
    return toAdminUser(rows[0]);
  }
}

/** The spec's admin user: the user object without its entitlement lists, plus status and last sign-in. */
function toAdminUser(row: Row): AdminUser {
  return {
    id: row.id,
    username: row.username ?? '',
    email: row.email ?? '',
    first_name: row.first_name,
    last_name: row.last_name,
    subscription_plan: row.plan_id,
    max_clients: row.max_clients,
    is_active: row.is_active,
    created_at: row.created_at.toISOString(),
    last_login: row.last_login?.toISOString() ?? null,
  };
}
