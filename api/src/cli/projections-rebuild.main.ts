import { Pool } from 'pg';
import { ConfigError, loadConfig } from '../platform/config/config';
import { openDatabase } from '../platform/database/database';
import { migrate } from '../platform/database/migrations';
import { PostgresEventStore } from '../platform/event-store/postgres-event-store';
import { logger } from '../platform/logging/logger';
import { migrations } from '../migrations';
import { loadSecrets } from '../platform/config/secrets';
import { buildReadModels, readModelNames } from '../read-models';
import { rebuildProjection } from '../platform/projections/rebuild-projection';
import { replayProjectionInto } from '../platform/projections/replay-projection';
import { eventsUpTo } from '../platform/event-store/log-point';

const USAGE = `Usage: npm run projections:rebuild -- <name> [--until <position|time> --into <schema>]
  <name> alone rebuilds the live read model from the whole log and swaps it in.
  --until with --into builds it as it stood at that log position or time (ISO 8601) in <schema>,
  beside the live one, for inspection; the live read model is not touched.`;

/** The command line: a projection name and, for a replay, where to stop and which schema to fill. */
function rebuildArguments(argv: string[]): { name: string; until?: string; into?: string } | string {
  const [name, ...rest] = argv;
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i]!, rest[i + 1]];
    if ((flag !== '--until' && flag !== '--into') || !value || value.startsWith('--')) return `Unexpected ${flag}\n${USAGE}`;
    options[flag.slice(2)] = value;
  }
  if (!name || name.startsWith('--')) return USAGE;
  if (!readModelNames.includes(name)) return `${USAGE}\nKnown projections: ${readModelNames.join(', ')}`;
  if (options.until !== undefined && options.into === undefined)
    return `--until needs --into: the live read model is never rewound.\n${USAGE}`;
  if (options.until !== undefined && !/^\d+$/.test(options.until) && Number.isNaN(Date.parse(options.until))) {
    return `--until ${options.until} is neither a log position nor a time.\n${USAGE}`;
  }
  return { name, ...options };
}

/**
 * `npm run projections:rebuild -- <name>`: replays the log from position 0 into fresh
 * tables and swaps them in; readers and running runners carry on throughout. With `--until`
 * and `--into`, builds the read model as it stood then in a schema beside the live one.
 */
async function main(): Promise<void> {
  const args = rebuildArguments(process.argv.slice(2));
  if (typeof args === 'string') {
    console.error(args);
    process.exit(2);
  }
  const { name, until, into } = args;
  const config = loadConfig();
  const database = await openDatabase(config);
  const pool: Pool = database.pool;
  try {
    const projection = buildReadModels(pool, loadSecrets(config)).find((p) => p.name === name)!;
    await migrate(pool, migrations);
    const store = new PostgresEventStore(pool);
    if (into !== undefined) {
      const { position, applied } = await replayProjectionInto(pool, store, projection, into, until ? eventsUpTo(until) : () => true);
      console.log(`Replayed ${name} into schema ${into}: ${applied} events applied, up to position ${position}.`);
    } else {
      const position = await rebuildProjection(pool, store, projection, logger);
      console.log(`Rebuilt ${name} up to position ${position}.`);
    }
    await store.close();
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
