/**
 * The desktop host's headless runtime: `npm run host -- --data-dir <dir> --api <url>`. It signs
 * the device in, keeps its entitlements and serves its UI on loopback; the Electron shell, when
 * there is one, only opens a window on the launch URL this prints.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ControlServer } from './control/control-server';
import { Host } from './host';
import { parseHostSettings } from './host-config';
import { hardwareFingerprint } from './platform/hardware-fingerprint';

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

/** The default browser, where no Electron shell opens the window. */
function openInBrowser(url: string): void {
  const command = process.platform === 'win32' ? 'explorer' : process.platform === 'darwin' ? 'open' : 'xdg-open';
  spawn(command, [url], { detached: true, stdio: 'ignore' })
    .on('error', () => console.log(`Open ${url} in a browser.`))
    .unref();
}

async function main(): Promise<void> {
  if (process.argv.includes('--version')) {
    // Compiled to desktop/dist/desktop/src/runtime/main.js (rootDir is the repository root).
    const { name, version } = readManifest(join(__dirname, '..', '..', '..', '..'));
    return console.log(`${name} ${version}`);
  }
  const settings = parseHostSettings(process.argv.slice(2), process.env);
  const { version } = readManifest(join(__dirname, '..', '..', '..', '..'));
  const host = await Host.open({
    dataDir: settings.dataDir,
    api: settings.api,
    deviceName: settings.deviceName,
    fingerprint: await hardwareFingerprint(settings.fingerprint),
    version,
  });
  const control = new ControlServer(host);
  await control.listen(settings.uiPort);
  // One line a parent process (the Electron shell, the tests) reads to find the UI.
  console.log(`meshwork-host ui ${control.launchUrl}`);
  if (settings.open) openInBrowser(control.launchUrl);
  const stop = async () => {
    await control.close();
    await host.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

if (require.main === module)
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
