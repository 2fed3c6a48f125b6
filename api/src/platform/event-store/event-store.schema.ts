import type { Migration } from '../database/migrations';

/**
 * The event log. Positions come from a sequence, so concurrent appends commit out of
 * position order and aborted ones leave holes; `readAll` deals with both (see
 * postgres-event-store.ts). `es_append` does the whole append in one round trip.
 *
 * Custom SQLSTATEs: MW409 wrong expected version, MW422 partial duplicate, MW23U value taken.
 */
export const eventStoreMigrations: Migration[] = [
  {
    id: '0001-event-store',
    sql: `
CREATE SEQUENCE es_position_seq;

CREATE TABLE es_streams (
  stream_id text PRIMARY KEY,
  version integer NOT NULL
);

CREATE TABLE es_events (
  position bigint PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  stream_id text NOT NULL,
  stream_version integer NOT NULL,
  type text NOT NULL,
  schema_version integer NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  occurred_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, stream_version)
);

CREATE TABLE es_unique_values (
  scope text NOT NULL,
  value text NOT NULL,
  stream_id text NOT NULL,
  PRIMARY KEY (scope, value)
);

CREATE FUNCTION es_append(
  p_stream text, p_expected integer,
  p_ids uuid[], p_types text[], p_schema_versions integer[], p_data jsonb[], p_metadata jsonb[], p_occurred timestamptz[],
  p_claim_scopes text[], p_claim_values text[], p_release_scopes text[], p_release_values text[]
) RETURNS TABLE (positions bigint[], version integer, already_appended boolean)
LANGUAGE plpgsql AS $fn$
DECLARE
  n integer := cardinality(p_ids);
  found_count integer;
  new_version integer;
  taken_scope text;
  taken_value text;
BEGIN
  -- Idempotency: the same event ids again is a success that writes nothing.
  SELECT count(*) INTO found_count FROM es_events WHERE event_id = ANY(p_ids);
  IF found_count > 0 THEN
    IF found_count = n AND NOT EXISTS (SELECT 1 FROM es_events WHERE event_id = ANY(p_ids) AND stream_id <> p_stream) THEN
      RETURN QUERY SELECT array_agg(e.position ORDER BY e.position), (SELECT s.version FROM es_streams s WHERE s.stream_id = p_stream), true
        FROM es_events e WHERE e.event_id = ANY(p_ids);
      RETURN;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'MW422', MESSAGE = 'partial duplicate append';
  END IF;

  -- Write the stream row BEFORE drawing positions. By then the transaction has its xid
  -- and (from the SELECT above) a lock on es_events, which readAll's hole check relies on:
  -- every position in use belongs to a transaction it can see in pg_locks.
  IF p_expected = -1 THEN
    INSERT INTO es_streams AS s VALUES (p_stream, n)
      ON CONFLICT (stream_id) DO UPDATE SET version = s.version + n RETURNING s.version INTO new_version;
  ELSIF p_expected = 0 THEN
    INSERT INTO es_streams AS s VALUES (p_stream, n) ON CONFLICT (stream_id) DO NOTHING RETURNING s.version INTO new_version;
  ELSE
    UPDATE es_streams s SET version = s.version + n WHERE s.stream_id = p_stream AND s.version = p_expected
      RETURNING s.version INTO new_version;
  END IF;
  IF new_version IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'MW409', MESSAGE = 'wrong expected version';
  END IF;

  IF cardinality(p_release_scopes) > 0 THEN
    DELETE FROM es_unique_values u USING unnest(p_release_scopes, p_release_values) AS r(scope, value)
      WHERE u.scope = r.scope AND u.value = r.value AND u.stream_id = p_stream;
  END IF;
  IF cardinality(p_claim_scopes) > 0 THEN
    -- A concurrent claimant of the same value waits on the row lock, then sees it taken.
    WITH wanted AS (SELECT * FROM unnest(p_claim_scopes, p_claim_values) AS c(scope, value)),
    claimed AS (
      INSERT INTO es_unique_values AS u (scope, value, stream_id) SELECT scope, value, p_stream FROM wanted
      ON CONFLICT (scope, value) DO UPDATE SET stream_id = u.stream_id WHERE u.stream_id = p_stream
      RETURNING u.scope, u.value
    )
    SELECT w.scope, w.value INTO taken_scope, taken_value FROM wanted w
      WHERE NOT EXISTS (SELECT 1 FROM claimed c WHERE c.scope = w.scope AND c.value = w.value) LIMIT 1;
    IF taken_scope IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'MW23U', MESSAGE = taken_scope, DETAIL = taken_value;
    END IF;
  END IF;

  RETURN QUERY
  WITH inserted AS (
    INSERT INTO es_events (position, event_id, stream_id, stream_version, type, schema_version, data, metadata, occurred_at)
    SELECT nextval('es_position_seq'), e.id, p_stream, new_version - n + e.ord::integer, e.type, e.sv, e.data, e.meta, e.occurred
    FROM unnest(p_ids, p_types, p_schema_versions, p_data, p_metadata, p_occurred) WITH ORDINALITY
      AS e(id, type, sv, data, meta, occurred, ord)
    ORDER BY e.ord
    RETURNING es_events.position
  )
  SELECT array_agg(i.position ORDER BY i.position), new_version, false FROM inserted i;
END
$fn$;
`,
  },
];
