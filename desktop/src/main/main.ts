/**
 * The Electron shell: it runs the host's runtime in its main process and opens one window on
 * the runtime's UI, with a tray icon and start at login. All the product is in the runtime; the
 * window's page gets no Node and no Electron, only `window.meshworkShell` from the preload script.
 *
 * Started as `electron desktop/dist/desktop/src/main/main.js [runtime flags]`, with the same flags,
 * defaults and data directory as `meshwork-host`, so either finds the other's running instance.
 */
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, Menu, nativeImage, shell, Tray } from 'electron';
import { ShellArguments, type ShellChannel } from '@meshwork/contracts';
import { COMMAND, parseCommandLine, usage } from '../runtime/host-config';
import { appDefaults, launch, packageDir, readManifest } from '../runtime/main';
import type { Runtime } from '../runtime/runtime';

let runtime: Runtime | null = null;
let stopRuntime: (() => Promise<void>) | null = null;
let window: BrowserWindow | null = null;
let tray: Tray | null = null;
let quitting = false;

/** Links to anywhere but the runtime's own UI (the site's /activate, documentation) open in the browser. */
function openOutside(url: string): void {
  if (/^https?:\/\//.test(url)) void shell.openExternal(url);
}

function showWindow(): void {
  if (!runtime) return;
  if (window) return void (window.show(), window.focus());
  const origin = runtime.control.origin;
  window = new BrowserWindow({
    width: 1100,
    height: 720,
    title: 'Meshwork',
    webPreferences: {
      preload: join(__dirname, '..', 'preload', 'preload.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin === origin) return;
    event.preventDefault();
    openOutside(url);
  });
  // Closing the window keeps the host serving its network; Quit in the tray ends it.
  window.on('close', (event) => {
    if (quitting) return;
    event.preventDefault();
    window?.hide();
  });
  window.on('closed', () => (window = null));
  // A fresh one-time code for each window; the session cookie it is traded for stays in the shell's session.
  void window.loadURL(runtime.control.windowUrl());
}

/** Each channel checks its arguments with the contract's schema before acting. */
function handle<Channel extends ShellChannel>(channel: Channel, act: (...args: never[]) => unknown): void {
  ipcMain.handle(channel, (event, ...args: unknown[]) => {
    if (!runtime || new URL(event.senderFrame?.url ?? 'about:blank').origin !== runtime.control.origin)
      throw new Error('Refused: only the Meshwork window may ask this.');
    const parsed = ShellArguments[channel].safeParse(args);
    if (!parsed.success) throw new Error(`Refused: bad arguments for ${channel}.`);
    return (act as (...a: unknown[]) => unknown)(...parsed.data);
  });
}

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) return app.quit();
  app.on('second-instance', showWindow);
  await app.whenReady();
  const defaults = appDefaults();
  const command = parseCommandLine(process.argv.slice(app.isPackaged ? 1 : 2), process.env, defaults);
  if (command.kind !== 'run') {
    console.log(command.kind === 'help' ? usage(defaults) : `${COMMAND} ${readManifest(packageDir).version}`);
    return app.quit();
  }
  // The shell shows its own window, never the browser's.
  const launched = await launch({ ...command.settings, open: false });
  if (launched.kind === 'running') {
    // `meshwork-host` already runs this data directory: its window opens in the browser instead.
    await shell.openExternal(launched.firstUrl);
    return app.quit();
  }
  runtime = launched.runtime;
  stopRuntime = launched.close;

  handle('getStartAtLogin', () => app.getLoginItemSettings().openAtLogin);
  handle('setStartAtLogin', (enabled: boolean) => {
    app.setLoginItemSettings({ openAtLogin: enabled });
    return app.getLoginItemSettings().openAtLogin;
  });

  tray = new Tray(nativeImage.createEmpty());
  tray.setToolTip('Meshwork');
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Meshwork', click: showWindow },
      { type: 'separator' },
      { label: 'Quit', click: () => app.quit() },
    ]),
  );
  tray.on('click', showWindow);
  showWindow();
}

app.on('before-quit', (event) => {
  if (quitting || !stopRuntime) return;
  // Stop the runtime first (answers end, files are closed), then really quit.
  quitting = true;
  event.preventDefault();
  void stopRuntime().finally(() => app.quit());
});
// The host keeps running in the tray when its window is closed.
app.on('window-all-closed', () => undefined);

start().catch((error: Error) => {
  console.error(error.message);
  app.exit(1);
});
