/**
 * The desktop host's headless runtime: `npm run host -- --data-dir <dir> --api <url>`. It signs
 * the device in, keeps its entitlements and serves its UI on loopback; the Electron shell, when
 * there is one, only opens a window on the launch URL this prints.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHostSettings } from './host-config';
import { hardwareFingerprint } from './platform/hardware-fingerprint';
import { startRuntime } from './runtime';

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

/** Compiled to desktop/dist/desktop/src/runtime/main.js (rootDir is the repository root). */
const packageDir = join(__dirname, '..', '..', '..', '..');

/** Starts the whole runtime from flags and MESHWORK_* variables: this command, and the Electron shell. */
export async function launch(argv: string[], env: NodeJS.ProcessEnv) {
  const settings = parseHostSettings(argv, env);
  const runtime = await startRuntime({
    dataDir: settings.dataDir,
    api: settings.api,
    deviceName: settings.deviceName,
    fingerprint: await hardwareFingerprint(settings.fingerprint),
    version: readManifest(packageDir).version,
    uiPort: settings.uiPort,
    apiAddress: settings.apiAddress,
    apiPort: settings.apiPort,
    threads: settings.threads,
    lanAddress: settings.lanAddress,
    lanPort: settings.lanPort,
  });
  return { settings, runtime };
}

async function main(): Promise<void> {
  if (process.argv.includes('--version')) {
    const { name, version } = readManifest(packageDir);
    return console.log(`${name} ${version}`);
  }
  const { settings, runtime } = await launch(process.argv.slice(2), process.env);
  // Lines a parent process (the tests, a supervisor) reads to find the UI and the api.
  console.log(`meshwork-host ui ${runtime.control.launchUrl}`);
  console.log(`meshwork-host openai-api http://${settings.apiAddress}:${runtime.openai.port}/v1`);
  console.log(`meshwork-host network ${settings.lanAddress}:${settings.lanPort}`);
  if (settings.open) openInBrowser(runtime.control.launchUrl);
  const stop = async () => {
    await runtime.close();
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
