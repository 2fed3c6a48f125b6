/**
 * Headless runtime of the desktop host: the process that will sync entitlements, keep the
 * model store and coordinate the local network. It needs no window, so it runs (and is
 * tested) without Electron. For now it only reports its version and exits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface PackageManifest {
  name: string;
  version: string;
}

/** Reads the desktop package's own manifest, so the version has a single source. */
export function readManifest(packageDir: string): PackageManifest {
  const parsed: unknown = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !('name' in parsed) || !('version' in parsed)) {
    throw new Error(`${packageDir}/package.json has no name or version`);
  }
  const { name, version } = parsed;
  if (typeof name !== 'string' || typeof version !== 'string') {
    throw new Error(`${packageDir}/package.json has a non-text name or version`);
  }
  return { name, version };
}

function main(): void {
  // Compiled to desktop/dist/desktop/src/runtime/main.js (rootDir is the repository root).
  const packageDir = join(__dirname, '..', '..', '..', '..');
  const { name, version } = readManifest(packageDir);
  console.log(`${name} ${version}`);
}

if (require.main === module) main();
