/**
 * The append without unique values, as one prepared statement (no function call, no
 * pre-check): PostgreSQL parses and plans it once per connection. $1 stream id, $2 expected
 * version, $3 the events as one JSON array, $4 how many.
 *
 * The stream row is written (CTE `s`) before any position is drawn: every joined row needs
 * s's row, and nextval runs per joined row. So the transaction has its xid, and the INSERT
 * its lock on es_events, before it holds a position, which readAll's hole check relies on.
 * No row back means the stream was not at the expected version; a duplicate event id fails
 * on es_events_event_id_key.
 */
const EVENTS = `e AS (
  SELECT * FROM ROWS FROM (jsonb_to_recordset($3::jsonb) AS (id uuid, type text, sv int, data jsonb, meta jsonb, occurred timestamptz))
    WITH ORDINALITY AS e(id, type, sv, data, meta, occurred, ord)
  WHERE $2::integer IS NOT NULL)`; // names $2's type in the statements that do not compare it

const INSERT_EVENTS = `
INSERT INTO es_events (position, event_id, stream_id, stream_version, type, schema_version, data, metadata, occurred_at)
SELECT nextval('es_position_seq'), e.id, $1, s.version - $4 + e.ord::integer, e.type, e.sv, e.data, e.meta, e.occurred
  FROM s, e ORDER BY e.ord
RETURNING position, stream_version`;

export const APPEND = {
  /** expectedVersion > 0: the stream must be at exactly that version. */
  existing: `WITH ${EVENTS}, s AS (UPDATE es_streams SET version = version + $4 WHERE stream_id = $1 AND version = $2::integer RETURNING version) ${INSERT_EVENTS}`,
  /** expectedVersion 0: the stream must not exist. */
  new: `WITH ${EVENTS}, s AS (INSERT INTO es_streams VALUES ($1, $4) ON CONFLICT DO NOTHING RETURNING version) ${INSERT_EVENTS}`,
  /** 'any': no check. */
  any: `WITH ${EVENTS}, s AS (INSERT INTO es_streams AS t VALUES ($1, $4) ON CONFLICT (stream_id) DO UPDATE SET version = t.version + $4 RETURNING t.version) ${INSERT_EVENTS}`,
} as const;
