import { createTablesIn, describeSchema } from '../../platform/testing/describe-schema';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { AUDIT_TRAIL_ENTITIES } from './audit-trail.entities';

describe('The audit trail’s table, from its entity', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([], 2);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('has the columns, key and indexes of audit trail version 4, in any schema', async () => {
    await createTablesIn(db.pool, 'rm_audit_trail__next', AUDIT_TRAIL_ENTITIES);
    const { columns, keys, indexes } = await describeSchema(db.pool, 'rm_audit_trail__next');
    expect(columns).toEqual([
      'device_owners.device_id text NOT NULL',
      'device_owners.user_id text NOT NULL',
      'entries.actor_ip text',
      'entries.actor_is_staff boolean NOT NULL',
      'entries.actor_token_id text',
      'entries.actor_user_agent text',
      'entries.actor_user_id text',
      'entries.causation_id text',
      'entries.correlation_id text NOT NULL',
      'entries.details jsonb NOT NULL',
      'entries.event_id uuid NOT NULL',
      'entries.key_owner text',
      'entries.occurred_at timestamp with time zone NOT NULL',
      'entries.position bigint NOT NULL',
      'entries.resource_id text NOT NULL',
      'entries.resource_type text NOT NULL',
      'entries.stream_id text NOT NULL',
      'entries.stream_version integer NOT NULL',
      'entries.type text NOT NULL',
      'entry_hours.hour timestamp with time zone NOT NULL',
      'entry_hours.max_position bigint NOT NULL',
      'entry_hours.min_position bigint NOT NULL',
    ]);
    expect(keys).toEqual(['device_owners PRIMARY KEY (device_id)', 'entries PRIMARY KEY ("position")', 'entry_hours PRIMARY KEY (hour)']);
    expect(indexes).toEqual([
      'entries btree (actor_user_id, "position")',
      'entries btree (correlation_id)',
      'entries btree (occurred_at)',
      'entries btree (resource_type, resource_id, "position")',
      'entries btree (type, "position")',
    ]);
  });
});
