import type { PoolClient } from 'pg';
import type { UserEventCodec } from '../../identity';
import type { UserEvent, UserEventType } from '../../identity/events';

/**
 * Who pays: each user's email, username and name, kept in the billing read model's own table
 * (PayerRecord, billing.entities.ts) from identity's user events, so the console's payments
 * list shows, searches and sorts by the payer without reading identity's tables.
 *
 * Those fields are personal: identity stores them encrypted under the user's own key. They
 * are read through identity's codec (its public index), in the clear while the key exists,
 * and the row goes on `UserDeleted`, as the users read model's does: crypto-shredding holds
 * only if every readable copy goes with the account. A rebuild after a deletion reads
 * nulls for that user and then drops the row.
 */

export const PAYER_EVENTS = ['UserRegistered', 'ProfileUpdated', 'UserDeleted'] as const satisfies readonly UserEventType[];

/** How the billing read model reads a user's events: identity's codec (decode only). */
export type UserEvents = Pick<UserEventCodec, 'decode'>;

export async function applyPayerEvent(db: PoolClient, schema: string, userId: string, event: UserEvent): Promise<void> {
  const payers = `${schema}.payers`;
  switch (event.type) {
    case 'UserRegistered':
      await db.query(`INSERT INTO ${payers} (user_id, email, username) VALUES ($1, $2, $3)`, [
        userId,
        event.data.email,
        event.data.username,
      ]);
      return;
    case 'ProfileUpdated': {
      const { email, username, firstName, lastName } = event.data;
      await db.query(
        `UPDATE ${payers} SET email = coalesce($2, email), username = coalesce($3, username),
                first_name = coalesce($4, first_name), last_name = coalesce($5, last_name) WHERE user_id = $1`,
        [userId, email ?? null, username ?? null, firstName ?? null, lastName ?? null],
      );
      return;
    }
    case 'UserDeleted':
      await db.query(`DELETE FROM ${payers} WHERE user_id = $1`, [userId]);
      return;
    default:
      return;
  }
}
