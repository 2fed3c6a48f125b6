import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, signingKeySpec } from '../platform/config/config';
import { newSigningKey, publicKeyOf, rotateStoredEntitlementKey } from '../platform/config/secrets';

const USAGE = `Usage:
  npm run entitlement-key -- --rotate   embedded mode: a new key in DATA_DIR/secrets.json signs from the next start;
                                        the old one stays published until its documents have expired
  npm run entitlement-key -- --new      full mode: print a new key as the variables spell it (see README)`;

/** The entitlement signing key's operator commands. */
function main(): void {
  const { values } = parseArgs({ options: { rotate: { type: 'boolean' }, new: { type: 'boolean' } } });
  if (values.new === values.rotate) {
    console.error(USAGE);
    process.exit(2);
  }
  if (values.new) {
    const key = newSigningKey();
    const { kid, seed } = signingKeySpec.parse(key);
    console.log(`ENTITLEMENT_SIGNING_KEY=${key}`);
    console.log(`public half, for ENTITLEMENT_PUBLISHED_KEYS: ${kid}:${publicKeyOf(seed)}`);
    return;
  }
  const config = loadConfig();
  if (config.ENTITLEMENT_SIGNING_KEY) {
    console.error('The signing key comes from ENTITLEMENT_SIGNING_KEY here: rotate it in the environment (--new, then README).');
    process.exit(2);
  }
  const kid = rotateStoredEntitlementKey(config.dataDir);
  console.log(`Key ${kid} signs entitlement documents from the api's next start; restart it now.`);
}

try {
  main();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.problems.join('\n'));
  process.exit(2);
}
