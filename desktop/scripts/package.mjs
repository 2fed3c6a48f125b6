// `npm run desktop:package`: the desktop releases a site serves, from what
// `npm run build -w contracts -w desktop` built (the npm script builds first).
//
//   node desktop/scripts/package.mjs [--out <dir>] [--origin <url>] [--keys <file or url>] [--platform linux|windows|all]
//
// Writes into <dir> (desktop/release by default) Meshwork-Desktop-v<version>.tar.gz and .deb (Linux x64), Meshwork-Desktop-v<version>.exe
// (the Windows installer; skipped with a reason when makensis is not installed) and releases.json.
// --origin is the site the apps connect to (written into each app's release.json); --keys the
// site's entitlement public keys (a JSON file, or its https://<site>/api/v1/devices/keys/), which
// the apps trust as their root (without them an app pins its site's keys at first sign-in).
// The work is release/build-releases.mjs, which `npm start` calls too.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildReleases, loadKeys, parsePlatforms } from './release/build-releases.mjs';
import { root } from './release/app-tree.mjs';

const usage =
  'usage: node desktop/scripts/package.mjs [--out <dir>] [--origin <url>] [--keys <file or url>] [--platform linux|windows|all]';
try {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      origin: { type: 'string' },
      keys: { type: 'string' },
      platform: { type: 'string', default: 'all' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const out = path.resolve(values.out ?? path.join(root, 'desktop', 'release'));
  const keys = await loadKeys(values.keys);
  const index = await buildReleases({ out, origin: values.origin, keys, platforms: parsePlatforms(values.platform) });
  console.log(`${path.join(out, 'releases.json')}: ${index.files.length} files, ${index.skipped.length} skipped`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
