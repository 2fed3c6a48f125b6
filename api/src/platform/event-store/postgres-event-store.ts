import type { Pool } from 'pg';
import type { NewEvent, RecordedEvent } from '@meshwork/contracts';
import { type HeldConnection, holdListener } from '../database/held-connection';
import { APPEND } from './append-statements';
import { PartialDuplicateAppendError, UniqueValueTakenError, WrongExpectedVersionError } from './event-store.errors';
import type { AppendOptions, AppendResult, EventStore, ExpectedVersion, UniqueValue } from './event-store.port';
import { EVENT_UPCASTERS, Upcasters } from './upcasters';

const APPENDED_CHANNEL = 'es_appended';
/** How long readAll waits for a hole's writer to finish before returning what is safe. */
const HOLE_WAIT_MS = 250;

/** A row of es_events: the event log's own table, not a read model, so no entity (see read-side.ts). */
interface EventRow {
  position: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: RecordedEvent['metadata'];
  occurred_at: Date;
  recorded_at: Date;
}

/** Xids of the transactions in this database holding any lock on es_events: the appends in flight. */
const APPENDING_TRANSACTIONS = `
  SELECT coalesce(array_agg(DISTINCT x.transactionid::text), '{}') AS writers
    FROM pg_locks r
    JOIN pg_locks x ON x.pid = r.pid AND x.locktype = 'transactionid' AND x.mode = 'ExclusiveLock'
   WHERE r.locktype = 'relation' AND r.relation = 'es_events'::regclass
     AND r.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

const EVENT_COLUMNS = 'position, event_id, stream_id, stream_version, type, schema_version, data, metadata, occurred_at, recorded_at';

/**
 * The event store on PostgreSQL.
 *
 * Ordering without skips: positions come from a sequence, so transaction B may commit
 * position 8 while A, holding 7, is still running, or A may abort and leave 7 empty for
 * ever. A reader that took 8 and moved its checkpoint would miss 7. Rather than serialise
 * every append behind one lock (which caps throughput at one commit per fsync), writers run
 * fully concurrently and readAll only hands out a contiguous run of positions. At a hole it
 * notes which appends are in flight and waits until they have all ended; since an append
 * gets its xid and its lock on es_events before it draws a position (see the schema), the
 * hole's writer is among them. After that the hole is either filled or empty for good.
 * Cost: a reader at the head waits for the slowest in-flight append, usually a millisecond;
 * writers pay nothing.
 */
export class PostgresEventStore implements EventStore {
  private listener: Promise<HeldConnection> | null = null;
  private readonly waiters = new Set<() => void>();
  private notifyPending = false;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly upcasters: Upcasters = EVENT_UPCASTERS,
  ) {}

  async append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion, options: AppendOptions = {}): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const result =
      options.claim?.length || options.release?.length
        ? await this.appendWithUniqueValues(streamId, events, expectedVersion, options)
        : await this.appendPlain(streamId, events, expectedVersion);
    if (!result.alreadyAppended) this.announceAppend();
    return result;
  }

  /** The common case, one prepared statement (see append-statements.ts). */
  private async appendPlain(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    const mode = expectedVersion === 'any' ? 'any' : expectedVersion === 0 ? 'new' : 'existing';
    const json = JSON.stringify(
      events.map((e) => ({ id: e.eventId, type: e.type, sv: e.schemaVersion, data: e.data, meta: e.metadata, occurred: e.occurredAt })),
    );
    try {
      const { rows } = await this.pool.query<{ position: string; stream_version: number }>({
        name: `es_append_${mode}`,
        text: APPEND[mode],
        values: [streamId, expectedVersion === 'any' ? -1 : expectedVersion, json, events.length],
      });
      if (rows.length > 0) {
        return {
          nextExpectedVersion: rows[rows.length - 1]!.stream_version,
          positions: rows.map((r) => Number(r.position)),
          alreadyAppended: false,
        };
      }
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      if (code !== '23505' || !message.includes('es_events_event_id_key')) throw error;
      // These event ids are in the log already: a retry of this very append is a success.
      const replay = await this.findAppended(streamId, events);
      if (replay) return replay;
      throw new PartialDuplicateAppendError(streamId);
    }
    // Not at the expected version, unless a racing retry of this append got there first.
    const replay = await this.findAppended(streamId, events);
    if (replay) return replay;
    throw new WrongExpectedVersionError(streamId, expectedVersion);
  }

  /** With unique values to claim or release, through es_append in one round trip. */
  private async appendWithUniqueValues(
    streamId: string,
    events: NewEvent[],
    expectedVersion: ExpectedVersion,
    options: AppendOptions,
  ): Promise<AppendResult> {
    const claim = options.claim ?? [];
    const release = options.release ?? [];
    try {
      const { rows } = await this.pool.query<{ positions: string[]; version: number; already_appended: boolean }>({
        name: 'es_append_unique',
        text: 'SELECT positions, version, already_appended FROM es_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)',
        values: [
          streamId,
          expectedVersion === 'any' ? -1 : expectedVersion,
          events.map((e) => e.eventId),
          events.map((e) => e.type),
          events.map((e) => e.schemaVersion),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => JSON.stringify(e.metadata)),
          events.map((e) => e.occurredAt),
          claim.map((c) => c.scope),
          claim.map((c) => c.value),
          release.map((c) => c.scope),
          release.map((c) => c.value),
        ],
      });
      const row = rows[0]!;
      return { nextExpectedVersion: row.version, positions: row.positions.map(Number), alreadyAppended: row.already_appended };
    } catch (error) {
      const { code, message, detail } = error as { code?: string; message: string; detail?: string };
      if (code === 'MW409' || (code === '23505' && message.includes('es_events_event_id_key'))) {
        // A racing writer may have appended these very events: that is an idempotent success.
        const replay = await this.findAppended(streamId, events);
        if (replay) return replay;
        throw new WrongExpectedVersionError(streamId, expectedVersion);
      }
      if (code === 'MW422') throw new PartialDuplicateAppendError(streamId);
      if (code === 'MW23U') throw new UniqueValueTakenError(message, detail ?? '');
      throw error;
    }
  }

  async readStream(streamId: string, fromVersion = 1): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`,
      [streamId, fromVersion],
    );
    return rows.map((r) => this.toRecorded(r));
  }

  async streamVersion(streamId: string): Promise<number> {
    const { rows } = await this.pool.query<{ version: number }>('SELECT version FROM es_streams WHERE stream_id = $1', [streamId]);
    return rows[0]?.version ?? 0;
  }

  async readAll(afterPosition: number, limit: number): Promise<RecordedEvent[]> {
    let rows = await this.readRows(afterPosition, limit);
    const safe = contiguousPrefix(rows, afterPosition);
    if (safe < rows.length && (await this.waitForHoleWriters())) {
      // Every writer that could fill a hole has finished: what is there now is final.
      const last = Number(rows[rows.length - 1]!.position);
      const { rows: settled } = await this.pool.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM es_events WHERE position > $1 AND position <= $2 ORDER BY position`,
        [afterPosition, last],
      );
      rows = settled;
    } else {
      rows = rows.slice(0, safe);
    }
    return rows.map((r) => this.toRecorded(r));
  }

  async ownerOf(value: UniqueValue): Promise<string | null> {
    const { rows } = await this.pool.query<{ stream_id: string }>(
      'SELECT stream_id FROM es_unique_values WHERE scope = $1 AND value = $2',
      [value.scope, value.value],
    );
    return rows[0]?.stream_id ?? null;
  }

  async headPosition(): Promise<number> {
    const { rows } = await this.pool.query<{ head: string | null }>('SELECT max(position) AS head FROM es_events');
    return Number(rows[0]?.head ?? 0);
  }

  async waitForAppend(timeoutMs: number): Promise<void> {
    await this.ensureListening();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Releases the LISTEN connection; the pool belongs to the caller. */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of [...this.waiters]) wake();
    const listener = this.listener;
    this.listener = null;
    const connection = await listener?.catch(() => null);
    connection?.release(true);
  }

  private async readRows(afterPosition: number, limit: number): Promise<EventRow[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE position > $1 ORDER BY position LIMIT $2`,
      [afterPosition, limit],
    );
    return rows;
  }

  /**
   * Waits until every transaction that is appending right now has ended (or the wait runs
   * out); returns whether they all ended. A hole's writer is among them: it has an xid and
   * holds a lock on es_events from its first statement until it ends. Only event-store
   * writers count, so unrelated long transactions never hold readers up.
   */
  private async waitForHoleWriters(): Promise<boolean> {
    const { rows } = await this.pool.query<{ writers: string[] }>(APPENDING_TRANSACTIONS);
    const writers = rows[0]!.writers;
    const deadline = Date.now() + HOLE_WAIT_MS;
    for (let pause = 1; writers.length > 0; pause = Math.min(pause * 2, 20)) {
      const { rows: running } = await this.pool.query<{ running: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND transactionid::text = ANY($1)) AS running`,
        [writers],
      );
      if (!running[0]!.running) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, pause));
    }
    return true;
  }

  private async findAppended(streamId: string, events: NewEvent[]): Promise<AppendResult | null> {
    const ids = events.map((e) => e.eventId);
    const { rows } = await this.pool.query<{ position: string; stream_id: string }>(
      'SELECT position, stream_id FROM es_events WHERE event_id = ANY($1) ORDER BY position',
      [ids],
    );
    if (rows.length !== ids.length || rows.some((r) => r.stream_id !== streamId)) return null;
    const { rows: stream } = await this.pool.query<{ version: number }>('SELECT version FROM es_streams WHERE stream_id = $1', [streamId]);
    return { nextExpectedVersion: stream[0]!.version, positions: rows.map((r) => Number(r.position)), alreadyAppended: true };
  }

  /**
   * Wakes readers after the commit. NOTIFY inside the append's transaction would serialise
   * all committing appends on PostgreSQL's notify queue lock, so it is sent afterwards, and
   * at most one at a time: readers re-read from their checkpoint anyway.
   */
  private announceAppend(): void {
    // Followers in this process need no round trip; NOTIFY is for the other processes.
    for (const wake of [...this.waiters]) wake();
    if (this.notifyPending) return;
    this.notifyPending = true;
    setImmediate(() => {
      this.pool
        .query('SELECT pg_notify($1, $2)', [APPENDED_CHANNEL, ''])
        .catch(() => undefined) // readers also poll; a lost wake-up only adds latency
        .finally(() => (this.notifyPending = false));
    });
  }

  private async ensureListening(): Promise<void> {
    if (this.closed) return; // no new connection once closed: the pool is about to end
    this.listener ??= this.listen();
    await this.listener.catch(() => {
      this.listener = null; // no LISTEN now: the caller's timeout still bounds its wait
    });
  }

  private listen(): Promise<HeldConnection> {
    const listening: Promise<HeldConnection> = holdListener(
      this.pool,
      APPENDED_CHANNEL,
      () => {
        for (const wake of [...this.waiters]) wake();
      },
      () => {
        // The connection died: forget it so the next wait opens a new one.
        if (this.listener === listening) this.listener = null;
      },
    );
    return listening;
  }

  private toRecorded(row: EventRow): RecordedEvent {
    const { schemaVersion, data } = this.upcasters.upcast(row.type, row.schema_version, row.data);
    return {
      eventId: row.event_id,
      type: row.type,
      schemaVersion,
      data,
      metadata: row.metadata,
      occurredAt: row.occurred_at,
      streamId: row.stream_id,
      streamVersion: row.stream_version,
      position: Number(row.position),
      recordedAt: row.recorded_at,
    };
  }
}

/** How many rows, from the start, continue `afterPosition` without a gap. */
function contiguousPrefix(rows: EventRow[], afterPosition: number): number {
  let expected = afterPosition + 1;
  for (let i = 0; i < rows.length; i++) {
    if (Number(rows[i]!.position) !== expected) return i;
    expected += 1;
  }
  return rows.length;
}
