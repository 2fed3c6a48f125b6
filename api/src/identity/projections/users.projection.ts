import type { PoolClient } from 'pg';
import type { RecordedEvent } from '../../../../contracts/src/events/event-envelope';
import type { Projection } from '../../../../projections/src/runner/projection';
import type { PersonalDataVault } from '../infrastructure/personal-data-vault';
import { notifyIdentityChanged } from '../../platform/database/notifications';
import { UserEventCodec, userIdOf } from '../infrastructure/user-event-codec';

export const USERS_PROJECTION = 'users';

/**
 * The users read model: profile, status, staff flag, sign-in times, and a lowercase search
 * text (username, email, full name) for the console. Personal fields are decrypted on the
 * way in; a deleted user's row is removed.
 */
export function usersProjection(vault: PersonalDataVault): Projection {
  const codec = new UserEventCodec(vault);
  return {
    name: USERS_PROJECTION,
    handles: ['UserRegistered', 'ProfileUpdated', 'UserSignedIn', 'UserDeactivated', 'UserReactivated', 'UserDeleted'],
    async createTables(db: PoolClient, schema: string) {
      await db.query(`
        CREATE TABLE ${schema}.users (
          id text PRIMARY KEY,
          username text,
          email text,
          first_name text NOT NULL DEFAULT '',
          last_name text NOT NULL DEFAULT '',
          is_staff boolean NOT NULL,
          is_active boolean NOT NULL DEFAULT true,
          created_at timestamptz NOT NULL,
          last_login timestamptz,
          search text NOT NULL DEFAULT ''
        );
        CREATE INDEX ON ${schema}.users (created_at);`);
    },
    async apply(db: PoolClient, schema: string, recorded: RecordedEvent) {
      const id = userIdOf(recorded.streamId);
      const event = await codec.decode(id, recorded);
      const users = `${schema}.users`;
      // Processes that cache signed-in users forget this one when the change commits.
      const announce = () => db.query(`SELECT ${notifyIdentityChanged('$1')}`, [id]);
      const refreshSearch = `search = lower(coalesce(username, '') || ' ' || coalesce(email, '') || ' ' || first_name || ' ' || last_name)`;
      switch (event.type) {
        case 'UserRegistered':
          await db.query(`INSERT INTO ${users} (id, username, email, is_staff, created_at) VALUES ($1, $2, $3, $4, $5)`, [
            id,
            event.data.username,
            event.data.email,
            event.data.isStaff,
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
          await announce();
          return;
        }
        case 'UserSignedIn':
          await db.query(`UPDATE ${users} SET last_login = $2 WHERE id = $1`, [id, recorded.occurredAt]);
          return;
        case 'UserDeactivated':
        case 'UserReactivated':
          await db.query(`UPDATE ${users} SET is_active = $2 WHERE id = $1`, [id, event.type === 'UserReactivated']);
          await announce();
          return;
        case 'UserDeleted':
          await db.query(`DELETE FROM ${users} WHERE id = $1`, [id]);
          await announce();
          return;
        default:
          return;
      }
    },
  };
}
