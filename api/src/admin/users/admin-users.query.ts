import { Inject, Injectable } from '@nestjs/common';
import type { AdminUser } from '@meshwork/contracts';
import type { Repository } from 'typeorm';
import { USER_PLANS, type UserPlan, type UserPlans, USERS_ENTITIES, UserRecord } from '../../identity';
import { notFound } from '../../platform/domain/errors';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';
import type { ListQuery } from '../../platform/http/react-admin-list';

/** Reads the users read model for the console: search, sort, page; each user's plan and limit from UserPlans. */
@Injectable()
export class AdminUsers {
  static readonly sortable = ['username', 'email', 'first_name', 'last_name', 'created_at', 'last_login', 'is_active'] as const;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(USER_PLANS) private readonly plans: UserPlans,
  ) {}

  /** `filter.q` matches username, email or full name, ignoring case; `filter.is_active` narrows. */
  async list(query: ListQuery): Promise<{ rows: AdminUser[]; total: number }> {
    const users = (await this.users()).createQueryBuilder('u');
    if (typeof query.filter.q === 'string' && query.filter.q.trim()) {
      const words = query.filter.q
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, '\\$&');
      users.andWhere('u.search LIKE :q', { q: `%${words}%` });
    }
    if (typeof query.filter.is_active === 'boolean') users.andWhere('u.is_active = :active', { active: query.filter.is_active });
    // sortField is checked against `sortable` before it gets here; the id keeps pages stable.
    users
      .orderBy(`u.${query.sortField}`, query.sortOrder === 'ASC' ? 'ASC' : 'DESC', 'NULLS LAST')
      .addOrderBy('u.id')
      .offset(query.offset)
      .limit(query.limit);
    const [rows, total] = await users.getManyAndCount();
    const plans = await this.plans.of(rows.map((row) => row.id));
    return { rows: rows.map((row) => toAdminUser(row, plans.get(row.id)!)), total };
  }

  async get(id: string): Promise<AdminUser> {
    const row = await (await this.users()).findOneBy({ id });
    if (!row) throw notFound();
    return toAdminUser(row, (await this.plans.of([id])).get(id)!);
  }

  private async users(): Promise<Repository<UserRecord>> {
    return (await readSide(this.database.pool, USERS_ENTITIES)).getRepository(UserRecord);
  }
}

/** The spec's admin user: the user object without its entitlement lists, plus status and last sign-in. */
function toAdminUser(row: UserRecord, plan: UserPlan): AdminUser {
  return {
    id: row.id,
    username: row.username ?? '',
    email: row.email ?? '',
    first_name: row.first_name,
    last_name: row.last_name,
    subscription_plan: plan.plan_id,
    max_clients: plan.max_clients,
    is_staff: row.is_staff,
    is_auditor: row.is_auditor,
    is_active: row.is_active,
    created_at: row.created_at.toISOString(),
    last_login: row.last_login?.toISOString() ?? null,
  };
}
