// The real LogSealer in a process of its own, as the api or a projections worker runs it.
// Receives { url, key } (key: the data encryption key, base64); answers 'started', and
// stops and exits on 'stop'.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { dist } from './fill.mjs';

const { PostgresEventStore } = dist('api/src/platform/event-store/postgres-event-store.js');
const { LogSealer } = dist('api/src/platform/event-store/chain/log-sealer.js');
const { sealKey } = dist('api/src/platform/event-store/chain/log-chain.js');
const { LocalDiskStorage } = dist('api/src/platform/storage/local-disk-storage.js');

process.once('message', ({ url, key }) => {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const store = new PostgresEventStore(pool);
  // Seals are anchored as in embedded mode: files in a folder of the bench's own.
  const anchors = new LocalDiskStorage(mkdtempSync(path.join(os.tmpdir(), 'bench-anchors-')), Buffer.alloc(32), 'http://127.0.0.1');
  const sealer = new LogSealer(pool, store, sealKey(Buffer.from(key, 'base64')), { anchors }).start();
  process.send('started');
  process.once('message', async () => {
    await sealer.stop();
    await store.close();
    await pool.end();
    process.exit(0);
  });
});
