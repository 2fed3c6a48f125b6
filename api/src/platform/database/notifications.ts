/**
 * NOTIFY channel whose payload is a user id: that user's sessions or user object changed.
 * Writers in several contexts announce on it (sessions, read models that feed the user
 * object); processes that cache signed-in users listen (identity's SignedInUsers).
 */
export const IDENTITY_CHANGED_CHANNEL = 'identity_changed';

/** The payload of an identity_changed that concerns every user (e.g. a model's access changed). */
export const EVERYONE = '*';

/** SQL that announces a change to a user (inside the writer's transaction: sent on commit). */
export const notifyIdentityChanged = (userIdSql: string) => `pg_notify('${IDENTITY_CHANGED_CHANNEL}', ${userIdSql})`;
