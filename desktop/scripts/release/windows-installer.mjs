// The Windows release: a per-user NSIS installer compiled on Linux with makensis. It holds the
// same tree as the Linux archive with Windows' Node and onnxruntime, and Meshwork.exe, a
// launcher compiled from nsis/launcher.nsi. Debian's Wine cannot start Node 24's node.exe, so
// nothing here runs the result: the tests unpack it with 7-Zip instead.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { nodeVersion, stageApp } from './app-tree.mjs';
import { meshworkIco } from './icon.mjs';
import { windowsNodeBinary } from './node-windows.mjs';
import { run } from './run.mjs';

const nsis = path.join(import.meta.dirname, 'nsis');

/** Why the installer cannot be built on this machine, or null when it can. */
export function windowsSkipReason() {
  const probe = spawnSync('makensis', ['-VERSION'], { stdio: 'ignore' });
  return probe.error ? 'makensis is not installed (Debian: apt-get install nsis)' : null;
}

const makensis = (script, defines) =>
  run('makensis', ['-V2', '-INPUTCHARSET', 'UTF8', ...Object.entries(defines).map(([name, value]) => `-D${name}=${value}`), script]);

/**
 * Builds `file` in `work` (a scratch folder): stages the tree with node.exe from the cache, compiles
 * the launcher into it, then the installer around it.
 */
export async function buildWindowsInstaller({ work, origin, keys = null, file }) {
  const tree = path.join(work, 'tree');
  const { version } = stageApp({ top: tree, platform: 'windows', origin, keys, nodeBinary: await windowsNodeBinary(nodeVersion()) });
  const icon = path.join(work, 'meshwork.ico');
  fs.writeFileSync(icon, meshworkIco());
  // Windows wants four numbers; a pre-release tag (1.2.0-beta.1) keeps only the first three.
  const fileVersion = `${version.split(/[-+]/)[0]}.0`;
  const common = { ICON: icon, VERSION: version, FILE_VERSION: fileVersion };
  await makensis(path.join(nsis, 'launcher.nsi'), { ...common, OUTFILE: path.join(tree, 'Meshwork.exe') });
  fs.rmSync(file, { force: true });
  await makensis(path.join(nsis, 'installer.nsi'), { ...common, SOURCE: tree, OUTFILE: file });
  return { version };
}
