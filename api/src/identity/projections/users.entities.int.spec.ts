import { createTablesIn, describeSchema } from '../../platform/testing/describe-schema';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { USERS_ENTITIES } from './users.entities';

/** The tables as they were written by hand before the entities described them (users read model version 2), and is_auditor (version 4). */
const HAND_WRITTEN = [
  'free_plan.max_clients double precision NOT NULL',
  'model_access.downloadable boolean NOT NULL false',
  'model_access.model_id text NOT NULL',
  'model_access.name text NOT NULL',
  'model_access.plans jsonb NOT NULL',
  'users.created_at timestamp with time zone NOT NULL',
  'users.email text',
  'users.entitled boolean NOT NULL false',
  "users.first_name text NOT NULL ''::text",
  'users.id text NOT NULL',
  'users.is_active boolean NOT NULL true',
  'users.is_auditor boolean NOT NULL false',
  'users.is_staff boolean NOT NULL',
  'users.last_login timestamp with time zone',
  "users.last_name text NOT NULL ''::text",
  'users.max_clients double precision NOT NULL',
  "users.plan_id text NOT NULL 'free'::text",
  "users.search text NOT NULL ''::text",
  'users.username text',
];

describe('The users read model’s tables, from its entities', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([], 2);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('have the columns, keys and index the hand-written tables had, in any schema (a rebuild’s too)', async () => {
    await createTablesIn(db.pool, 'rm_users__next', USERS_ENTITIES);
    const { columns, keys, indexes } = await describeSchema(db.pool, 'rm_users__next');
    // Version 5 dropped the plan part (free_plan, model_access, users.plan_id, max_clients,
    // entitled): billing and the catalog own it.
    const dropped = ['free_plan.', 'model_access.', 'users.plan_id ', 'users.max_clients ', 'users.entitled '];
    expect(columns).toEqual(HAND_WRITTEN.filter((column) => !dropped.some((prefix) => column.startsWith(prefix))).sort());
    expect(keys).toEqual(['users PRIMARY KEY (id)']);
    expect(indexes).toEqual(['users btree (created_at)']);
  });
});
