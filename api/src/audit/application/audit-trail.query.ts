import { Inject, Injectable } from '@nestjs/common';
import { type AuditEntry, type AuditFilter, type AuditPage, type AuditQuery, ERASED_USER } from '@meshwork/contracts';
import { IdentityHistory, UserDirectory } from '../../identity';
import { DATABASE, type Database } from '../../platform/database/database';
import { readModelSchema } from '../../platform/projections/projection';
import { AUDIT_TRAIL_PROJECTION, type AuditEntryRecord, hourOf } from '../projections/audit-trail.entities';

const ENTRIES = `${readModelSchema(AUDIT_TRAIL_PROJECTION)}.entries`;
const HOURS = `${readModelSchema(AUDIT_TRAIL_PROJECTION)}.entry_hours`;

/** An entry as the page reads it: the entity's columns but the stream id (resource_type and resource_id name it). */
type EntryRow = Omit<AuditEntryRecord, 'stream_id'>;

/** A WHERE clause and its parameters; `null` when the filter can match nothing (an unknown email). */
type Where = { sql: string; values: unknown[] } | null;

/**
 * Reads the audit trail read model for staff and auditors: filtered, newest first, in pages
 * by position. Names each actor by their email as it is now (identity's directory) and opens
 * ip addresses and user agents that personal streams keep encrypted, with their owner's key:
 * after an account is erased its entries show 'erased user' and no ip, as the log itself does.
 */
@Injectable()
export class AuditTrail {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly directory: UserDirectory,
    private readonly identity: IdentityHistory,
  ) {}

  async page(query: AuditQuery): Promise<AuditPage> {
    const where = await this.where(query, query.cursor);
    if (!where) return { results: [], next_cursor: null };
    const rows = await this.rows(where, query.limit + 1);
    const more = rows.length > query.limit;
    const results = await this.entries(rows.slice(0, query.limit));
    return { results, next_cursor: more ? results[results.length - 1]!.position : null };
  }

  /** Every matching entry, newest first, in batches (the CSV export streams these). */
  async *all(filter: AuditFilter, batch = 1000): AsyncGenerator<AuditEntry[]> {
    let before: number | undefined;
    for (;;) {
      const where = await this.where(filter, before);
      if (!where) return;
      const rows = await this.rows(where, batch);
      if (rows.length === 0) return;
      yield this.entries(rows);
      if (rows.length < batch) return;
      before = Number(rows[rows.length - 1]!.position);
    }
  }

  // Raw SQL: a measured hot path (bench:audit holds these pages to plain SQL's speed over a million entries).
  private async rows(where: NonNullable<Where>, limit: number): Promise<EntryRow[]> {
    const { rows } = await this.database.pool.query<EntryRow>(
      `SELECT position, event_id, type, resource_type, resource_id, stream_version, occurred_at, actor_user_id, actor_is_staff,
              actor_ip, actor_user_agent, actor_token_id, key_owner, correlation_id, causation_id, details
         FROM ${ENTRIES} ${where.sql} ORDER BY position DESC LIMIT ${limit}`,
      where.values,
    );
    return rows;
  }

  private async where(filter: AuditFilter, before: number | undefined): Promise<Where> {
    const conditions: string[] = [];
    const values: unknown[] = [];
    const add = (column: string, operator: string, value: unknown) => {
      values.push(value);
      conditions.push(`${column} ${operator} $${values.length}`);
    };
    if (filter.actor) {
      const actor = filter.actor.includes('@') ? await this.identity.userIdByEmail(filter.actor) : filter.actor;
      if (!actor) return null;
      add('actor_user_id', '=', actor);
    }
    if (filter.action) add('type', '=', filter.action);
    if (filter.resource_type) add('resource_type', '=', filter.resource_type);
    if (filter.resource_id) add('resource_id', '=', filter.resource_id);
    if (filter.correlation_id) add('correlation_id', '=', filter.correlation_id);
    if (filter.from) add('occurred_at', '>=', filter.from);
    if (filter.to) add('occurred_at', '<', filter.to);
    if (filter.from || filter.to) {
      // Without these the planner walks the key down from the newest entry, filtering by time as it goes:
      // through most of the log for a range early in it. With them the walk starts and stops at the range.
      const span = await this.positionsIn(filter.from, filter.to);
      if (!span) return null;
      add('position', '>=', span.min);
      add('position', '<=', span.max);
    }
    if (before !== undefined) add('position', '<', before);
    return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', values };
  }

  /**
   * The lowest and highest position of the entries in the hours [from, to) touches: every entry
   * in the range lies between them (some outside it may too; occurred_at still decides). Null
   * when no entry happened in those hours. Read as values, not a subquery, so the planner
   * weighs the page's plans with the real span.
   */
  private async positionsIn(from: string | undefined, to: string | undefined): Promise<{ min: string; max: string } | null> {
    const conditions: string[] = [];
    const values: string[] = [];
    if (from) {
      values.push(hourOf(new Date(from)).toISOString());
      conditions.push(`hour >= $${values.length}`);
    }
    if (to) {
      values.push(to);
      conditions.push(`hour < $${values.length}`);
    }
    const { rows } = await this.database.pool.query<{ min: string | null; max: string | null }>(
      `SELECT min(min_position) AS min, max(max_position) AS max FROM ${HOURS} WHERE ${conditions.join(' AND ')}`,
      values,
    );
    const { min, max } = rows[0]!;
    return min === null || max === null ? null : { min, max };
  }

  private async entries(rows: EntryRow[]): Promise<AuditEntry[]> {
    const names = await this.directory.namesOf(rows.flatMap((r) => (r.actor_user_id ? [r.actor_user_id] : [])));
    return Promise.all(
      rows.map(async (row) => ({
        id: row.event_id,
        position: Number(row.position),
        action: row.type,
        resource: row.resource_type,
        resource_id: row.resource_id,
        version: row.stream_version,
        timestamp: row.occurred_at.toISOString(),
        actor: row.actor_user_id
          ? {
              id: row.actor_user_id,
              email: names.get(row.actor_user_id)?.email ?? ERASED_USER,
              is_staff: row.actor_is_staff,
              ip_address: await this.open(row.key_owner, row.actor_ip),
              user_agent: await this.open(row.key_owner, row.actor_user_agent),
              api_token_id: row.actor_token_id,
            }
          : null,
        correlation_id: row.correlation_id,
        causation_id: row.causation_id,
        details: row.details,
      })),
    );
  }

  /** A value as the log holds it, decrypted when a personal stream encrypted it; null once its key is gone. */
  private open(keyOwner: string | null, value: string | null): Promise<string | null> | string | null {
    return keyOwner && value ? this.identity.openPersonal(keyOwner, value) : value;
  }
}
