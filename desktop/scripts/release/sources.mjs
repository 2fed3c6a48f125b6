// Whether the releases in a folder are those the current build would make: releases.json keeps a
// fingerprint of everything a release is made of, so `npm start` rebuilds only when one changed.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BUILT_INPUTS, desktopManifest, nodeVersion, root, runtimePackageVersions } from './app-tree.mjs';
import { parseKeys, parseOrigin } from './options.mjs';
import { windowsSkipReason } from './windows-installer.mjs';

/** Every file that shapes a release: the built app, the icon, and these packaging scripts themselves. */
const FINGERPRINTED = [...BUILT_INPUTS, 'web/public/favicon.svg', 'desktop/scripts/release'];

function addTree(hash, relative) {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return hash.update(`missing ${relative}\n`);
  const files = fs.statSync(full).isDirectory()
    ? fs
        .readdirSync(full, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
        .sort()
    : [relative];
  for (const file of files)
    hash
      .update(`${file}\n`)
      .update(fs.readFileSync(path.join(root, file)))
      .update('\n');
}

/** The hex SHA-256 of the built inputs, the versions bundled, the origin, the keys and the platforms asked for. */
export function sourcesFingerprint({ origin, keys = null, platforms }) {
  const hash = createHash('sha256');
  const settings = {
    version: desktopManifest().version,
    node: nodeVersion(),
    packages: runtimePackageVersions(),
    origin: parseOrigin(origin),
    keys: parseKeys(keys),
    platforms: [...new Set(platforms)].sort(),
  };
  hash.update(`${JSON.stringify(settings)}\n`);
  for (const relative of FINGERPRINTED) addTree(hash, relative);
  return hash.digest('hex');
}

/**
 * True when `<out>/releases.json` was built from the current inputs with this origin and these
 * platforms, every file it lists is there at its size, and no platform it skipped could be built now.
 */
export function releasesUpToDate({ out, origin, keys = null, platforms }) {
  let index;
  try {
    index = JSON.parse(fs.readFileSync(path.join(out, 'releases.json'), 'utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(index?.files) || !Array.isArray(index.skipped)) return false;
  if (index.sources !== sourcesFingerprint({ origin, keys, platforms })) return false;
  const present = ({ file, size }) => fs.existsSync(path.join(out, file)) && fs.statSync(path.join(out, file)).size === size;
  if (!index.files.every(present)) return false;
  return !index.skipped.some(({ platform }) => platform === 'windows' && windowsSkipReason() === null);
}
