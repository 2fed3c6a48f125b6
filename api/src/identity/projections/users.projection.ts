import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { Projection } from '../../platform/projections/projection';
import { notifyIdentityChanged } from '../../platform/database/notifications';
import type { PersonalDataVault } from '../infrastructure/personal-data-vault';
import { UserEventCodec, userIdOf } from '../infrastructure/user-event-codec';
import { createEntityTables } from '../../platform/database/read-side';
import { USER_EVENT_TYPES, type UserEventType } from '../events';
import { USERS_ENTITIES, USERS_PROJECTION } from './users.entities';

export { USERS_PROJECTION };

/** User events that change nothing this read model keeps (passwords and sessions): not decoded here. */
const KEPT_ELSEWHERE = new Set<UserEventType>(['PasswordChanged', 'PasswordResetRequested', 'PasswordResetCompleted', 'UserSignedOut']);

/**
 * The users read model: profile, status, staff flag, sign-in times, and a lowercase search
 * text (username, email, full name) for the console. Personal fields are decrypted on the
 * way in; a deleted user's row is removed. The user object's plan, limit and allowed models
 * are billing's and the catalog's (read through the UserPlans port, not kept here).
 *
 * Every change to a user's row is announced on identity_changed in the same transaction,
 * so processes caching signed-in users forget it when it commits: the announcement comes
 * from the read model the cache reads, never before it holds the change. (Billing's and the
 * catalog's read models announce changes to the plan part of the user object the same way.)
 */
export function usersProjection(vault: PersonalDataVault): Projection {
  const codec = new UserEventCodec(vault);
  return {
    name: USERS_PROJECTION,
    // 2: plan, limit and allowed models kept here from billing's and the catalog's events.
    // 3: tables created from the TypeORM entities (users.entities.ts); free_plan gains its one-row key.
    // 4: is_auditor, from UserRegistered and UserRolesChanged.
    // 5: plan, limit and allowed models no longer kept here (users.plan_id, max_clients,
    //    entitled, model_access, free_plan dropped): billing and the catalog own them.
    version: 5,
    handles: USER_EVENT_TYPES.filter((type) => !KEPT_ELSEWHERE.has(type)),
    // From the entities' metadata, in the schema being filled (the live one or a rebuild's).
    createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, USERS_ENTITIES),
    async apply(db: PoolClient, schema: string, recorded: RecordedEvent) {
      const id = userIdOf(recorded.streamId);
      const event = await codec.decode(id, recorded);
      const users = `${schema}.users`;
      const changed = () => db.query(`SELECT ${notifyIdentityChanged('$1')}`, [id]);
      const refreshSearch = `search = lower(coalesce(username, '') || ' ' || coalesce(email, '') || ' ' || first_name || ' ' || last_name)`;
      switch (event.type) {
        case 'UserRegistered':
          await db.query(`INSERT INTO ${users} (id, username, email, is_staff, is_auditor, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
            id,
            event.data.username,
            event.data.email,
            event.data.isStaff,
            event.data.isAuditor ?? false,
            recorded.occurredAt,
          ]);
          await db.query(`UPDATE ${users} SET ${refreshSearch} WHERE id = $1`, [id]);
          return;
        case 'ProfileUpdated': {
          const { email, username, firstName, lastName } = event.data;
          await db.query(
            `UPDATE ${users} SET email = coalesce($2, email), username = coalesce($3, username),
                    first_name = coalesce($4, first_name), last_name = coalesce($5, last_name) WHERE id = $1`,
            [id, email ?? null, username ?? null, firstName ?? null, lastName ?? null],
          );
          await db.query(`UPDATE ${users} SET ${refreshSearch} WHERE id = $1`, [id]);
          await changed();
          return;
        }
        case 'UserRolesChanged':
          await db.query(`UPDATE ${users} SET is_staff = $2, is_auditor = $3 WHERE id = $1`, [
            id,
            event.data.isStaff,
            event.data.isAuditor,
          ]);
          await changed();
          return;
        case 'UserSignedIn':
          await db.query(`UPDATE ${users} SET last_login = $2 WHERE id = $1`, [id, recorded.occurredAt]);
          return;
        case 'UserDeactivated':
        case 'UserReactivated':
          await db.query(`UPDATE ${users} SET is_active = $2 WHERE id = $1`, [id, event.type === 'UserReactivated']);
          await changed();
          return;
        case 'UserDeleted':
          await db.query(`DELETE FROM ${users} WHERE id = $1`, [id]);
          await changed();
          return;
        default:
          return;
      }
    },
  };
}
