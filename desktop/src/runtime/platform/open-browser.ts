import { spawn } from 'node:child_process';

/** An opener still running after this long has handed the address on (some wait for the browser to close). */
const SETTLE_MS = 3000;

/** The platform's way to show an address in the default browser, or null where there is no desktop to show it on. */
function opener(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): [string, string[]] | null {
  if (platform === 'win32') return ['rundll32.exe', ['url.dll,FileProtocolHandler']];
  if (platform === 'darwin') return ['open', []];
  // Without a display, xdg-open would fall back to a text browser in the host's own terminal.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return ['xdg-open', []];
}

/**
 * Opens `url` in the default browser: true once the opener took it, false when none could be
 * started (no desktop, no opener, or it failed), so the caller can print the address instead.
 * The opener is detached: the browser outlives the host.
 */
export function openInBrowser(url: string, platform = process.platform, env = process.env): Promise<boolean> {
  const command = opener(platform, env);
  if (!command) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(command[0], [...command[1], url], { detached: true, stdio: 'ignore', env, windowsHide: true });
    const settled = setTimeout(() => resolve(true), SETTLE_MS);
    const finish = (opened: boolean) => {
      clearTimeout(settled);
      resolve(opened);
    };
    child.once('error', () => finish(false));
    child.once('exit', (code) => finish(code === 0));
    child.unref();
  });
}
