/**
 * Prints the key set the api publishes at GET /devices/keys/, as JSON, computed as the api
 * computes it (embedded: from DATA_DIR/secrets.json, made now if it is not there yet, as the
 * api's first start would). `npm start` packs it into the desktop downloads it builds before the
 * api starts: their root of trust, so a fresh installation offers them from its first answer.
 */
import { ConfigError, loadConfig } from '../platform/config/config';
import { loadSecrets } from '../platform/config/secrets';
import { EntitlementSigner } from '../networks/infrastructure/entitlement-signer';

try {
  console.log(JSON.stringify(new EntitlementSigner(loadSecrets(loadConfig())).keySet(new Date())));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.problems.join('\n'));
  process.exit(2);
}
