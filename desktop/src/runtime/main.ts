/**
 * The desktop host's headless runtime: `meshwork-host` (`npm run host` from the sources). It
 * signs the device in, keeps its entitlements and serves its window on loopback, which it opens
 * in the default browser; started again for the same data directory, it opens the running
 * instance's window instead. The Electron shell runs the same `launch()` and opens its own window.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND, type HostSettings, parseCommandLine, platformDefaults, usage } from './host-config';
import { askInstanceForCode } from './control/instance-handshake';
import { createDataDirectory } from './platform/data-directory';
import { hardwareFingerprint } from './platform/hardware-fingerprint';
import { InstanceFile } from './platform/instance-file';
import { openInBrowser } from './platform/open-browser';
import { readRelease } from './platform/release-file';
import { type Runtime, startRuntime } from './runtime';

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

/** The app's package folder (its package.json, and a release's release.json): compiled to dist/desktop/src/runtime/main.js. */
export const packageDir = join(__dirname, '..', '..', '..', '..');

/** This app's defaults: the platform's data directory, and the site its release names. */
export const appDefaults = (env: NodeJS.ProcessEnv = process.env) => platformDefaults(() => readRelease(packageDir)?.origin ?? null, env);

export type Launched =
  | { kind: 'started'; settings: HostSettings; runtime: Runtime; close: () => Promise<void> }
  /** Another process runs this data directory: `windowUrl` asks it for an address that opens its window. */
  | { kind: 'running'; pid: number; firstUrl: string; windowUrl: () => Promise<string> };

/** Starts the runtime for `settings`, unless an instance already runs their data directory: this command, and the Electron shell. */
export async function launch(settings: HostSettings): Promise<Launched> {
  await createDataDirectory(settings.dataDir);
  const instance = new InstanceFile(settings.dataDir);
  const claim = await instance.claim(async ({ port, secret }) => {
    const code = await askInstanceForCode(port, secret);
    return code === null ? null : { port, secret, code };
  });
  if (claim.kind === 'running') {
    const { port, secret, code } = claim.answer;
    const url = (code: string) => `http://127.0.0.1:${port}/?code=${code}`;
    const windowUrl = async () => {
      const code = await askInstanceForCode(port, secret);
      if (code === null) throw new Error(`The Meshwork already running (process ${claim.record.pid}) stopped answering.`);
      return url(code);
    };
    return { kind: 'running', pid: claim.record.pid, firstUrl: url(code), windowUrl };
  }
  // The platform's keys this release carries: the root of trust for the plan. A copy run from the sources has none.
  const rootKeys = readRelease(packageDir)?.keys ?? null;
  if (!rootKeys) console.log('This copy carries no release keys: it trusts the keys your Meshwork site publishes when it first signs in.');
  let runtime: Runtime;
  try {
    runtime = await startRuntime({
      rootKeys,
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
  } catch (error) {
    await instance.release();
    throw portTaken(error, settings) ?? error;
  }
  await instance.publish(runtime.control.port, runtime.control.secret);
  return {
    kind: 'started',
    settings,
    runtime,
    close: async () => {
      await runtime.close();
      await instance.release();
    },
  };
}

/** A port another program holds, in words that name the flag that moves it. */
function portTaken(error: unknown, settings: HostSettings): Error | null {
  const { code, port } = error as NodeJS.ErrnoException & { port?: number };
  const ports: [number, string, string, string][] = [
    [settings.uiPort, '--ui-port', 'MESHWORK_UI_PORT', 'the window'],
    [settings.apiPort, '--api-port', 'MESHWORK_API_PORT', 'the OpenAI-compatible API'],
    [settings.lanPort, '--lan-port', 'MESHWORK_LAN_PORT', 'the LAN network'],
  ];
  const taken = code === 'EADDRINUSE' ? ports.find(([number]) => number === port) : undefined;
  if (!taken) return null;
  const [, flag, variable, what] = taken;
  return new Error(
    `Port ${port} (${what}) is already in use by another program. Pass ${flag} <another port> (or set ${variable}); 0 takes any free port.`,
  );
}

const STOP_LIMIT_MS = 10_000;

/** Opens `url` when asked to, and says how the window is reached either way. */
async function showWindow(url: string, open: boolean, running: string): Promise<void> {
  if (!open) return console.log(`${running}: open the meshwork-host ui address above in a browser to see its window.`);
  if (await openInBrowser(url)) return console.log(`${running}: its window is open in your browser.`);
  console.log(`${running}, but no browser could be started: open the meshwork-host ui address above in a browser.`);
  console.log('That address works once, for two minutes; run meshwork-host again for a new one.');
}

async function main(): Promise<void> {
  const defaults = appDefaults();
  const command = parseCommandLine(process.argv.slice(2), process.env, defaults);
  if (command.kind === 'help') return console.log(usage(defaults));
  if (command.kind === 'version') return console.log(`${COMMAND} ${readManifest(packageDir).version}`);
  const { settings } = command;
  const launched = await launch(settings);
  if (launched.kind === 'running') {
    // The line the first start prints, so whoever reads it finds the window either way.
    console.log(`meshwork-host ui ${launched.firstUrl}`);
    const url = settings.open ? await launched.windowUrl() : launched.firstUrl;
    return showWindow(url, settings.open, `Meshwork is already running for ${settings.dataDir} (process ${launched.pid})`);
  }
  const { runtime } = launched;
  const stop = async () => {
    // Whatever a part does as it closes, the process ends.
    setTimeout(() => process.exit(1), STOP_LIMIT_MS).unref();
    await launched.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  // Lines a parent process (the tests, a supervisor) reads to find the UI and the api.
  console.log(`meshwork-host ui ${runtime.control.windowUrl()}`);
  console.log(`meshwork-host openai-api http://${settings.apiAddress}:${runtime.openai.port}/v1`);
  console.log(`meshwork-host network ${settings.lanAddress}:${settings.lanPort}`);
  await showWindow(runtime.control.windowUrl(), settings.open, `Meshwork is running for ${settings.dataDir}`);
}

if (require.main === module)
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
