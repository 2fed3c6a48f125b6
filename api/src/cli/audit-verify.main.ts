import { ConfigError, loadConfig } from '../platform/config/config';
import { loadSecrets } from '../platform/config/secrets';
import { openDatabase } from '../platform/database/database';
import { migrate } from '../platform/database/migrations';
import { sealKey } from '../platform/event-store/chain/log-chain';
import { verifyLogChain } from '../platform/event-store/chain/verify-log-chain';
import { objectStorageFor } from '../platform/storage/object-storage.factory';
import { migrations } from '../migrations';

/**
 * `npm run audit:verify`: recomputes the event log's hash chain from the first event and
 * checks every signed seal and their numbering; with `-- --anchor`, also every seal against
 * its anchor in the object store (seal-anchor.ts). Prints the first position that does not
 * match and exits 1, or how far the log is intact. The verdict is recorded for the console.
 */
async function main(): Promise<void> {
  const unknown = process.argv.slice(2).filter((a) => a !== '--anchor');
  if (unknown.length > 0) {
    console.error(`Unknown option ${unknown.join(' ')}. Usage: npm run audit:verify [-- --anchor]`);
    process.exit(2);
  }
  const anchor = process.argv.includes('--anchor');
  const config = loadConfig();
  const secrets = loadSecrets(config);
  const database = await openDatabase(config);
  try {
    await migrate(database.pool, migrations);
    const started = performance.now();
    const anchors = anchor ? objectStorageFor(config, secrets.jwtSecret) : undefined;
    const verdict = await verifyLogChain(database.pool, sealKey(secrets.dataEncryptionKey), { anchors });
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round(verdict.events / Math.max(seconds, 1e-3));
    if (verdict.firstBroken !== null) {
      console.error(
        `Tampering found at position ${verdict.firstBroken}: ${verdict.problem}. The log is intact up to position ${verdict.verifiedTo}.`,
      );
      process.exitCode = 1;
    } else {
      console.log(
        `The event log is intact: ${verdict.events} events up to position ${verdict.verifiedTo}${anchor ? ', every seal matching its anchor' : ''} (${seconds.toFixed(2)} s, ${rate} events/s).`,
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
