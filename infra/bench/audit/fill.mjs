// The untimed set-up: the year's events appended through the real PostgresEventStore, then
// the read models the timed endpoints read built by the real ProjectionRunner, and the hash
// chain by the real LogSealer, all from position 0.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const dist = (p) => require(path.join(repoRoot, 'dist', p));

const DAY = 86_400_000;

/**
 * Appends `records` (oldest first) in windows of `windowDays`: within a window each stream's
 * events go in one append (expected version 'any'), `writers` appends at a time. So positions
 * follow time to the window, and appends are as large as a stream's month allows. The fill's
 * own sessions commit without waiting for the WAL flush (synchronous_commit=off, this pool
 * only): the fill is not measured, and every later line runs with the server's settings.
 */
export async function fillLog(url, records, build, { writers = 8, windowDays = 30, onWindow } = {}) {
  const { PostgresEventStore } = dist('api/src/platform/event-store/postgres-event-store.js');
  const pool = new pg.Pool({ connectionString: url, max: writers + 1, options: '-c synchronous_commit=off' });
  pool.on('error', () => undefined);
  const store = new PostgresEventStore(pool);
  let appends = 0;
  try {
    for (let i = 0; i < records.length;) {
      const windowEnd = records[i].t + windowDays * DAY;
      const streams = new Map();
      for (; i < records.length && records[i].t < windowEnd; i++) {
        const r = records[i];
        const list = streams.get(r.stream);
        if (list) list.push(r);
        else streams.set(r.stream, [r]);
      }
      const queue = [...streams];
      await Promise.all(
        Array.from({ length: writers }, async () => {
          for (let next = queue.pop(); next; next = queue.pop()) {
            const [stream, list] = next;
            const events = [];
            for (const r of list) events.push(await build(r));
            await store.append(stream, events, 'any');
            appends += 1;
          }
        }),
      );
      onWindow?.(i);
    }
  } finally {
    await store.close();
    await pool.end();
  }
  return { appends };
}

/**
 * Builds `built` read models (names) with ProjectionRunner, and the chain with LogSealer,
 * concurrently as the api would, and waits until each reaches the head. The other read models
 * and the followers that send commands (networks' plan limits, webhooks' plan, invoices) get
 * their tables and a checkpoint at the head: neither timed endpoint reads them, and a consumer
 * left at 0 would replay the year inside the timed lines (the invoice follower would also issue
 * and mail an invoice for every payment of the year).
 * Returns the seconds each took.
 */
export async function buildReadModels(url, secrets, built) {
  const { PostgresEventStore } = dist('api/src/platform/event-store/postgres-event-store.js');
  const { ProjectionRunner } = dist('api/src/platform/projections/projection-runner.js');
  const { LogSealer, SEALER_NAME } = dist('api/src/platform/event-store/chain/log-sealer.js');
  const { sealKey } = dist('api/src/platform/event-store/chain/log-chain.js');
  const { LocalDiskStorage } = dist('api/src/platform/storage/local-disk-storage.js');
  const { buildReadModels: readModels } = dist('api/src/read-models.js');
  // The followers that send commands (OwnCheckpoint starts them at 0): plan limits, webhooks' plan, invoices.
  const followerNames = [
    dist('api/src/networks/application/network-plan-limits.follower.js').PLAN_LIMITS_FOLLOWER,
    dist('api/src/webhooks/application/webhook-plan.follower.js').WEBHOOK_PLAN_FOLLOWER,
    dist('api/src/billing/application/invoice-issuer.follower.js').INVOICES_FOLLOWER,
  ];
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  pool.on('error', () => undefined);
  const store = new PostgresEventStore(pool);
  const head = await store.headPosition();
  const followers = [];
  const names = [];
  try {
    for (const projection of readModels(pool, secrets)) {
      const runner = new ProjectionRunner(pool, store, projection);
      await runner.ensureTables();
      if (built.includes(projection.name)) {
        followers.push(runner);
        names.push(projection.name);
      } else await pool.query('UPDATE projection_checkpoints SET position = $2 WHERE name = $1', [projection.name, head]);
    }
    await pool.query(
      `INSERT INTO projection_checkpoints (name, position) SELECT name, $2 FROM unnest($1::text[]) AS name
       ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position`,
      [followerNames, head],
    );
    // Seals are anchored as sealer-child.mjs anchors them: files in a folder of the bench's own.
    const anchors = new LocalDiskStorage(mkdtempSync(path.join(os.tmpdir(), 'bench-anchors-')), Buffer.alloc(32), 'http://127.0.0.1');
    followers.push(new LogSealer(pool, store, sealKey(secrets.dataEncryptionKey), { anchors }));
    names.push(SEALER_NAME);
    const t0 = performance.now();
    for (const f of followers) f.start();
    const seconds = {};
    while (Object.keys(seconds).length < names.length) {
      await new Promise((r) => setTimeout(r, 250));
      const { rows } = await pool.query('SELECT name, position FROM projection_checkpoints WHERE name = ANY($1)', [names]);
      for (const row of rows)
        if (Number(row.position) >= head && !(row.name in seconds)) seconds[row.name] = (performance.now() - t0) / 1000;
      const { rows: failing } = await pool.query(
        'SELECT name, position, event_type, error FROM projection_failures WHERE name = ANY($1) AND attempts >= 3 LIMIT 1',
        [names],
      );
      if (failing.length)
        throw new Error(`${failing[0].name} fails at ${failing[0].position} (${failing[0].event_type}): ${failing[0].error}`);
    }
    return { head, seconds };
  } finally {
    await Promise.all(followers.map((f) => f.stop()));
    await store.close();
    await pool.end();
  }
}

/** What a long-running database has after a year: statistics and a visibility map. */
export async function settle(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE)');
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}
