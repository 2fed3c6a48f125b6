import { ConfigError, loadConfig } from '../platform/config/config';
import { loadSecrets } from '../platform/config/secrets';
import { openDatabase } from '../platform/database/database';
import { migrate } from '../platform/database/migrations';
import { sealKey } from '../platform/event-store/chain/log-chain';
import { verifyLogChain } from '../platform/event-store/chain/verify-log-chain';
import { migrations } from '../migrations';

/**
 * `npm run audit:verify`: recomputes the event log's hash chain from the first event and
 * checks every signed seal; prints the first position that does not match and exits 1, or
 * how far the log is intact. The verdict is recorded for the console.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await migrate(database.pool, migrations);
    const started = performance.now();
    const verdict = await verifyLogChain(database.pool, sealKey(loadSecrets(config).dataEncryptionKey));
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round(verdict.events / Math.max(seconds, 1e-3));
    if (verdict.firstBroken !== null) {
      console.error(
        `Tampering found at position ${verdict.firstBroken}: ${verdict.problem}. The log is intact up to position ${verdict.verifiedTo}.`,
      );
      process.exitCode = 1;
    } else {
      console.log(
        `The event log is intact: ${verdict.events} events up to position ${verdict.verifiedTo} (${seconds.toFixed(2)} s, ${rate} events/s).`,
      );
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(2);
});
