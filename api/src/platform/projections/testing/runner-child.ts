/**
 * A projection runner in a process of its own, so tests can kill it for real.
 * Prints one JSON line per state change: {"state":"active"}, then failing, stalled etc.
 */
import { Pool } from 'pg';
import { PostgresEventStore } from '../../event-store/postgres-event-store';
import { ProjectionRunner } from '../projection-runner';
import { countingProjection } from './counting.projection';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
const store = new PostgresEventStore(pool);
const runner = new ProjectionRunner(pool, store, countingProjection, {
  batchSize: Number(process.env.BATCH_SIZE ?? 50),
  idleWaitMs: 100,
  standbyRetryMs: 100,
  retry: {
    attempts: Number(process.env.RETRY_ATTEMPTS ?? 10),
    firstDelayMs: Number(process.env.RETRY_FIRST_DELAY_MS ?? 1_000),
    pollMs: Number(process.env.RETRY_POLL_MS ?? 1_000),
  },
});
runner.start();

let last = '';
setInterval(() => {
  if (runner.state !== last) {
    last = runner.state;
    process.stdout.write(`${JSON.stringify({ state: last, pid: process.pid })}\n`);
  }
}, 20);

process.on('SIGTERM', () => {
  void runner.stop().then(() => process.exit(0));
});
