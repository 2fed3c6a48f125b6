import { Pool } from 'pg';
import { ConfigError, loadConfig } from '../../api/src/platform/config/config';
import { openDatabase } from '../../api/src/platform/database/database';
import { migrate } from '../../api/src/platform/database/migrations';
import { PostgresEventStore } from '../../api/src/platform/event-store/postgres-event-store';
import { logger } from '../../api/src/platform/logging/logger';
import { migrations } from '../../api/src/migrations';
import { readModels } from '../../api/src/read-models';
import { rebuildProjection } from './runner/rebuild-projection';

/**
 * `npm run projections:rebuild -- <name>`: replays the log from position 0 into fresh
 * tables and swaps them in; readers and running runners carry on throughout.
 */
async function main(): Promise<void> {
  const name = process.argv[2];
  const projection = readModels.find((p) => p.name === name);
  if (!projection) {
    console.error(`Usage: npm run projections:rebuild -- <name>\nKnown projections: ${readModels.map((p) => p.name).join(', ')}`);
    process.exit(2);
  }
  const database = await openDatabase(loadConfig());
  const pool: Pool = database.pool;
  try {
    await migrate(pool, migrations);
    const store = new PostgresEventStore(pool);
    const position = await rebuildProjection(pool, store, projection, logger);
    console.log(`Rebuilt ${name} up to position ${position}.`);
    await store.close();
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
