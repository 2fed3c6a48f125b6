import { createTablesIn, describeSchema } from '../../platform/testing/describe-schema';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { CATALOG_ENTITIES } from './catalog.entities';

/**
 * The tables as they were written by hand before the entities described them (catalog read model
 * version 1), but for the releases' files, in a table of their own since version 3.
 */
const HAND_WRITTEN = [
  'audit.action text NOT NULL',
  'audit.actor_user_id text',
  'audit.at timestamp with time zone NOT NULL',
  'audit.details text NOT NULL',
  'audit.ip text',
  'audit.new_data jsonb',
  'audit.old_data jsonb',
  'audit.position bigint NOT NULL',
  'audit.resource text NOT NULL',
  'audit.resource_id text NOT NULL',
  'audit.user_agent text',
  'downloads.downloaded_at timestamp with time zone NOT NULL',
  'downloads.file_name text NOT NULL',
  'downloads.id text NOT NULL',
  'downloads.kind text NOT NULL',
  'downloads.ref text NOT NULL',
  'downloads.size bigint NOT NULL',
  'downloads.user_id text NOT NULL',
  'downloads.version text NOT NULL',
  'model_files.model_id text NOT NULL',
  'model_files.name text NOT NULL',
  'model_files.object_key text NOT NULL',
  'model_files.part_index integer NOT NULL',
  'model_files.sha256 text NOT NULL',
  'model_files.size bigint NOT NULL',
  'models.allowed_plans jsonb NOT NULL',
  'models.architecture text NOT NULL',
  'models.description text NOT NULL',
  'models.display_name text NOT NULL',
  'models.id text NOT NULL',
  'models.name text NOT NULL',
  'models.parameters text NOT NULL',
  'models.parts_count integer NOT NULL 0',
  'models.status text NOT NULL',
  // The same zero; TypeORM writes the literal with its type.
  "models.total_size bigint NOT NULL '0'::bigint",
  'models.uploaded_at timestamp with time zone NOT NULL',
  'models.uploaded_by text',
  'models.version text NOT NULL',
  'release_files.file_name text NOT NULL',
  'release_files.format text',
  'release_files.object_key text NOT NULL',
  'release_files.platform text NOT NULL',
  'release_files.release_id text NOT NULL',
  'release_files.sha256 text NOT NULL',
  'release_files.size bigint NOT NULL',
  'release_files.uploaded_at timestamp with time zone NOT NULL',
  'releases.id text NOT NULL',
  'releases.is_active boolean NOT NULL false',
  'releases.is_stable boolean NOT NULL false',
  'releases.release_notes text NOT NULL',
  'releases.released_at timestamp with time zone NOT NULL',
  'releases.version text NOT NULL',
  'releases.version_key integer[] NOT NULL',
];

describe('The catalog read model’s tables, from its entities', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([], 2);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('have the columns, keys and indexes the hand-written tables had, in any schema (a rebuild’s too)', async () => {
    await createTablesIn(db.pool, 'rm_catalog__next', CATALOG_ENTITIES);
    const { columns, keys, indexes } = await describeSchema(db.pool, 'rm_catalog__next');
    expect(columns).toEqual(HAND_WRITTEN);
    expect(keys).toEqual([
      'audit PRIMARY KEY ("position")',
      'downloads PRIMARY KEY (id)',
      'model_files PRIMARY KEY (model_id, name)',
      'models PRIMARY KEY (id)',
      'release_files PRIMARY KEY (release_id, object_key)',
      'releases PRIMARY KEY (id)',
    ]);
    // Besides the keys' own. A user's downloads, newest first, scan (user_id, downloaded_at) backwards.
    expect(indexes).toEqual(['downloads btree (ref)', 'downloads btree (user_id, downloaded_at)', 'models UNIQUE btree (name)']);
  });
});
