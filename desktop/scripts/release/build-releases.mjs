// The desktop releases a site serves, built from what `npm run build -w contracts -w desktop`
// built: for Linux the .tar.gz and the .deb, for Windows the installer (.exe); and releases.json,
// the index of them that the api serves from. `desktop/scripts/package.mjs` is its command;
// `npm start` calls buildReleases() for the release it serves on a fresh installation.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertBuilt, desktopManifest } from './app-tree.mjs';
import { buildDeb } from './debian-package.mjs';
import { packTarGz, stageLinuxTree, topFolder } from './linux-archive.mjs';
import { ALL_PLATFORMS, parseKeys, parseOrigin } from './options.mjs';
import { sourcesFingerprint } from './sources.mjs';
import { buildWindowsInstaller, windowsSkipReason } from './windows-installer.mjs';

export { ALL_PLATFORMS, loadKeys, parseKeys, parseOrigin, parsePlatforms } from './options.mjs';
export { releasesUpToDate, sourcesFingerprint } from './sources.mjs';

const FILE_PREFIX = 'Meshwork-Desktop-v';

async function describe(out, platform, file) {
  const full = path.join(out, file);
  const sha256 = createHash('sha256');
  for await (const chunk of fs.createReadStream(full)) sha256.update(chunk);
  return { platform, file, size: fs.statSync(full).size, sha256: sha256.digest('hex') };
}

/** Seconds since `start`, for the lines that say how long each file took. */
const since = (start) => `${((Date.now() - start) / 1000).toFixed(1)} s`;
const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Builds the releases of `platforms` into `out` and writes `<out>/releases.json`; answers that
 * index. A platform whose tool is missing (makensis) is listed under `skipped` with the reason,
 * not failed. Release files of other builds in `out` are removed; the index is written last, so
 * an interrupted build leaves none.
 */
export async function buildReleases({ out, origin = null, keys = null, platforms = ALL_PLATFORMS, log = console.log }) {
  const site = parseOrigin(origin);
  const rootKeys = parseKeys(keys);
  const unknown = platforms.filter((platform) => !ALL_PLATFORMS.includes(platform));
  if (unknown.length > 0 || platforms.length === 0)
    throw new Error(`platforms must be some of ${ALL_PLATFORMS.join(', ')}, not [${platforms}]`);
  assertBuilt();
  const { version } = desktopManifest();
  // Taken before packing: a rebuild of the inputs during the build must not be taken for this one.
  const sources = sourcesFingerprint({ origin: site, keys: rootKeys, platforms });
  fs.mkdirSync(out, { recursive: true });
  fs.rmSync(path.join(out, 'releases.json'), { force: true });
  const files = [];
  const skipped = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-releases-'));
  const made = async (platform, file, start) => {
    const entry = await describe(out, platform, file);
    files.push(entry);
    log(`${path.join(out, file)} ${megabytes(entry.size)} in ${since(start)}`);
  };
  try {
    if (platforms.includes('linux')) {
      let start = Date.now();
      const staging = path.join(work, 'linux');
      const folder = topFolder(version);
      stageLinuxTree({ top: path.join(staging, folder), origin: site, keys: rootKeys });
      await packTarGz({ staging, folder, file: path.join(out, `${FILE_PREFIX}${version}.tar.gz`) });
      await made('linux', `${FILE_PREFIX}${version}.tar.gz`, start);
      start = Date.now();
      const debRoot = path.join(work, 'deb');
      await buildDeb({
        tree: path.join(staging, folder),
        debRoot,
        version,
        origin: site,
        file: path.join(out, `${FILE_PREFIX}${version}.deb`),
      });
      await made('linux', `${FILE_PREFIX}${version}.deb`, start);
    }
    if (platforms.includes('windows')) {
      const reason = windowsSkipReason();
      if (reason) {
        skipped.push({ platform: 'windows', reason });
        log(`Windows installer skipped: ${reason}`);
      } else {
        const start = Date.now();
        const file = `${FILE_PREFIX}${version}.exe`;
        await buildWindowsInstaller({ work: path.join(work, 'windows'), origin: site, keys: rootKeys, file: path.join(out, file) });
        await made('windows', file, start);
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  const listed = new Set(files.map(({ file }) => file));
  for (const name of fs.readdirSync(out))
    if (name.startsWith(FILE_PREFIX) && !listed.has(name)) fs.rmSync(path.join(out, name), { force: true });
  const index = { version, origin: site, sources, files, skipped };
  const written = path.join(out, `.releases.json.${process.pid}`);
  fs.writeFileSync(written, `${JSON.stringify(index, null, 2)}\n`);
  fs.renameSync(written, path.join(out, 'releases.json'));
  return index;
}
