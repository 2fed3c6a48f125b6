import { Pool } from 'pg';
import { ConfigError, loadConfig } from '../../api/src/platform/config/config';
import { openDatabase } from '../../api/src/platform/database/database';
import { migrate } from '../../api/src/platform/database/migrations';
import { PostgresEventStore } from '../../api/src/platform/event-store/postgres-event-store';
import { logger } from '../../api/src/platform/logging/logger';
import { migrations } from '../../api/src/migrations';
import { loadSecrets } from '../../api/src/platform/config/secrets';
import { buildReadModels, readModelNames } from '../../api/src/read-models';
import { rebuildProjection } from '../../api/src/platform/projections/rebuild-projection';

/**
 * `npm run projections:rebuild -- <name>`: replays the log from position 0 into fresh
 * tables and swaps them in; readers and running runners carry on throughout.
 */
async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !readModelNames.includes(name)) {
    console.error(`Usage: npm run projections:rebuild -- <name>\nKnown projections: ${readModelNames.join(', ')}`);
    process.exit(2);
  }
  const config = loadConfig();
  const database = await openDatabase(config);
  const pool: Pool = database.pool;
  try {
    const projection = buildReadModels(pool, loadSecrets(config)).find((p) => p.name === name)!;
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
