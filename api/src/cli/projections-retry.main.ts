import { ConfigError, loadConfig } from '../platform/config/config';
import { openDatabase } from '../platform/database/database';
import { migrate } from '../platform/database/migrations';
import { migrations } from '../migrations';
import { requestRetry } from '../platform/projections/consumer-failures';
import { consumerStatus } from '../platform/projections/consumer-status';

/**
 * `npm run projections:retry -- <name>`: asks the runner of a failing or stalled projection
 * (or the Kafka relay), in whichever process runs it, to try its event again now with a
 * fresh round of attempts: the console's Retry, for operators at a shell. The request is
 * a flag in the database, which a failing runner looks at every second.
 */
async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name) {
    console.error('Usage: npm run projections:retry -- <name>');
    process.exit(2);
  }
  const database = await openDatabase(loadConfig());
  try {
    await migrate(database.pool, migrations);
    const { rowCount } = await database.pool.query('SELECT 1 FROM projection_checkpoints WHERE name = $1', [name]);
    if (!rowCount) {
      const { rows } = await database.pool.query<{ name: string }>('SELECT name FROM projection_checkpoints ORDER BY name');
      console.error(`No projection named ${name}. Known: ${rows.map((r) => r.name).join(', ')}`);
      process.exitCode = 2;
      return;
    }
    const [status] = await consumerStatus(database.pool, [name]);
    if (!(await requestRetry(database.pool, name)) || !status!.failure) {
      console.log(`${name} is ${status!.state}, not failing: nothing to retry.`);
      return;
    }
    const { position, eventType, attempts, error } = status!.failure;
    console.log(
      `Asked ${name} to retry the ${eventType} event at position ${position} (${status!.state}, ${attempts} attempts: ${error}).`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
