import { mkdir } from 'node:fs/promises';
import { posix, win32 } from 'node:path';

/**
 * Where the host keeps its data when no --data-dir names a place: where each platform expects
 * an application's own data (per user, not roaming: models are large and the device's keys are
 * this machine's).
 */
export function defaultDataDirectory(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'win32') return win32.join(env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local'), 'Meshwork');
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'Meshwork');
  // The XDG base directory specification ignores a relative XDG_DATA_HOME.
  const xdg = env.XDG_DATA_HOME;
  return posix.join(xdg && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.local', 'share'), 'meshwork');
}

/** Creates the data directory (and any missing parent) readable by its owner only: it holds the device's tokens and keys. */
export async function createDataDirectory(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
}
