import type { Pool, PoolClient } from 'pg';

/**
 * A pooled connection kept for a while rather than one query: a LISTEN, an advisory lock.
 * Two things can end it, in either order and at shutdown often both: its holder's
 * `release()` and the connection's own death (the server ended it). pg-pool throws on a
 * second release, and it drops its own 'error' listener at checkout, so without one here
 * a dying connection would be an uncaught exception. Hence:
 * - `release()` gives it back once, however often it is called;
 * - a connection that dies is destroyed at once (never handed to another user) and
 *   reported once to `onLost`, though a dying connection may emit several errors.
 */
export interface HeldConnection {
  readonly client: PoolClient;
  /** False once the connection died; its queries fail from then on. */
  readonly alive: boolean;
  /** Gives the connection back; later calls do nothing. `destroy` when its session holds state (LISTEN) no other user should inherit. */
  release(destroy?: boolean): void;
}

/** Checks out a connection to hold (see HeldConnection). */
export async function holdConnection(pool: Pool, onLost?: (error: Error) => void): Promise<HeldConnection> {
  const client = await pool.connect();
  let alive = true;
  let released = false;
  const release = (destroy: Error | boolean) => {
    if (released) return;
    released = true;
    client.off('error', onError);
    client.release(destroy);
  };
  const onError = (error: Error) => {
    if (!alive) return;
    alive = false;
    release(error);
    onLost?.(error);
  };
  client.on('error', onError);
  return {
    client,
    get alive() {
      return alive;
    },
    release: (destroy = false) => release(destroy),
  };
}

/**
 * A held connection LISTENing on `channel` (a fixed identifier of ours, never user input):
 * each notification's payload goes to `onNotification`. When the LISTEN itself fails the
 * connection is destroyed (its session state is unknown) and the error is thrown.
 */
export async function holdListener(
  pool: Pool,
  channel: string,
  onNotification: (payload: string) => void,
  onLost?: (error: Error) => void,
): Promise<HeldConnection> {
  const connection = await holdConnection(pool, onLost);
  connection.client.on('notification', (message) => onNotification(message.payload ?? ''));
  try {
    await connection.client.query(`LISTEN ${channel}`);
  } catch (error) {
    connection.release(true);
    throw error;
  }
  return connection;
}
