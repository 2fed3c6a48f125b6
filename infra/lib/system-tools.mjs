// The system programs the release tests build and unpack the desktop app with: makensis (the
// Windows installer) and 7zz (reads it back). As root on Debian they are installed with apt-get,
// as CI runs; anywhere else a missing one is an error that names what to install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** Command → the Debian package that brings it. */
export const RELEASE_TOOLS = { makensis: 'nsis', '7zz': '7zip' };

const onPath = (command) => !spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status;

function aptGet(args) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`);
}

/** Installs the Debian packages of the missing `tools` (command → package) when it can, else throws. */
export function ensureSystemTools(tools = RELEASE_TOOLS) {
  const missing = Object.entries(tools).filter(([command]) => !onPath(command));
  if (missing.length === 0) return [];
  const packages = [...new Set(missing.map(([, name]) => name))];
  const commands = missing.map(([command]) => command).join(', ');
  const root = process.getuid?.() === 0;
  if (!root || !fs.existsSync('/etc/debian_version'))
    throw new Error(`${commands} not found: install ${packages.join(' ')} (Debian: apt-get install ${packages.join(' ')})`);
  console.log(`▶ installing ${packages.join(' ')} for ${commands} (Debian packages)`);
  aptGet(['update', '-qq']);
  aptGet(['install', '-y', '-qq', ...packages]);
  const still = missing.filter(([command]) => !onPath(command)).map(([command]) => command);
  if (still.length > 0) throw new Error(`${still.join(', ')} still missing after apt-get install ${packages.join(' ')}`);
  return packages;
}
