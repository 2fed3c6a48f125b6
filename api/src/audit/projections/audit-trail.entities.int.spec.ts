import { createTablesIn, describeSchema } from '../../platform/testing/describe-schema';
import { createTestDatabase, type TestDatabase } from '../../platform/testing/test-database';
import { AUDIT_TRAIL_ENTITIES } from './audit-trail.entities';

describe('The audit trail’s table, from its entity', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([], 2);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('has the columns, key and indexes the hand-written table had (audit trail version 1), in any schema', async () => {
    await createTablesIn(db.pool, 'rm_audit_trail__next', AUDIT_TRAIL_ENTITIES);
    const { columns, keys, indexes } = await describeSchema(db.pool, 'rm_audit_trail__next');
    expect(columns).toEqual([
      'entries.actor_is_staff boolean NOT NULL',
      'entries.actor_user_id text',
      'entries.causation_id text',
      'entries.correlation_id text NOT NULL',
      'entries.event_id uuid NOT NULL',
      'entries.occurred_at timestamp with time zone NOT NULL',
      'entries.position bigint NOT NULL',
      'entries.stream_id text NOT NULL',
      'entries.stream_version integer NOT NULL',
      'entries.type text NOT NULL',
    ]);
    expect(keys).toEqual(['entries PRIMARY KEY ("position")']);
    expect(indexes).toEqual([
      'entries btree (actor_user_id, occurred_at)',
      'entries btree (correlation_id)',
      'entries btree (stream_id, stream_version)',
      'entries btree (type, occurred_at)',
    ]);
  });
});
