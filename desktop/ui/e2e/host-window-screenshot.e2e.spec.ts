/// <reference lib="dom" />
/**
 * Issue 14, section 6: the host's window as a person sees it. Chromium opens the runtime's
 * launch link as an app window (`--app`, as the runtime does where Electron is absent) on a
 * virtual display (Xvfb), and the display is photographed: test-results/host-window.png.
 * The same Chromium is read over its DevTools port, so the test knows which screen the window
 * shows and where each part of it is, and checks the photograph shows exactly that.
 * `npm test` installs Xvfb and ImageMagick (Debian packages) when they are missing.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOT = resolve(__dirname, '../../../test-results/host-window.png');
const WIDTH = 1100;
const HEIGHT = 720;

/** The first line of `stream` that `pattern` matches (its first group), or an error if the stream ends first. */
function lineOf(stream: Readable, pattern: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      const found = pattern.exec(text);
      if (!found) return;
      stream.off('data', read);
      stream.resume(); // and the rest is read and dropped, so the process never blocks on a full pipe
      resolve(found[1]!);
    };
    stream.on('data', read);
    stream.once('end', () => reject(new Error(`${what} ended without it: ${text}`)));
  });
}

/** How many pixels of `a` and `b` (same size) differ by more than a trace of anti-aliasing. */
function differingPixels(a: string, b: string): number {
  const result = spawnSync('/usr/bin/compare', ['-metric', 'AE', '-fuzz', '2%', a, b, 'null:'], { encoding: 'utf8' });
  const count = Number.parseFloat(result.stderr);
  if (Number.isNaN(count)) throw new Error(`compare failed: ${result.stderr}`);
  return count;
}

/** The number of distinct colours in a part of an image: a blank area has one, rendered text dozens. */
function coloursIn(image: string, box: { x: number; y: number; width: number; height: number }): number {
  const crop = `${box.width}x${box.height}+${box.x}+${box.y}`;
  return Number(execFileSync('/usr/bin/convert', [image, '-crop', crop, '+repage', '-format', '%k', 'info:']).toString());
}

describe('the host’s window on a display', () => {
  let world: NetworksWorld;
  let subject: TestHost;
  let profile: string;
  let browser: Browser | undefined;
  const processes: ChildProcess[] = [];

  beforeAll(async () => {
    for (const tool of ['/usr/bin/Xvfb', '/usr/bin/import', '/usr/bin/compare', CHROMIUM])
      if (!existsSync(tool)) throw new Error(`${tool} is missing: run the tests with \`npm test\`, which installs it`);
    world = await networksWorld();
    const owner = await world.customer('pro');
    subject = await startHost(world.base, { name: 'Studio PC' });
    const code = ((await subject.call('POST', '/host/sign-in/device')).body.account as { user_code: string }).user_code;
    await owner.post('/devices/activate/', { user_code: code, name: 'Studio PC', approve: true }).expect(200);
    await subject.until((s) => s.connection === 'online' && s.entitlements !== null, 20_000, 'signed in and online');
    profile = await mkdtemp(join(tmpdir(), 'host-window-profile-'));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const child of processes) child.kill('SIGKILL');
    await subject?.close();
    await world?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  /** Xvfb on a display number it picks itself (free on this machine), once it accepts clients. */
  async function startDisplay(): Promise<string> {
    const xvfb = spawn('/usr/bin/Xvfb', ['-displayfd', '3', '-screen', '0', `${WIDTH}x${HEIGHT}x24`, '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    processes.push(xvfb);
    return `:${await lineOf(xvfb.stdio[3] as Readable, /^(\d+)\n/, 'Xvfb')}`;
  }

  /** Chromium's app window on `display`, and its page, read over the DevTools port. */
  async function openWindow(display: string): Promise<Page> {
    const app = spawn(
      CHROMIUM,
      [
        `--app=${subject.control.windowUrl()}`,
        `--user-data-dir=${profile}`,
        `--window-size=${WIDTH},${HEIGHT}`,
        '--window-position=0,0',
        '--no-sandbox',
        '--test-type', // no infobar about --no-sandbox over the window
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--remote-debugging-address=127.0.0.1',
        '--remote-debugging-port=0',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DISPLAY: display } },
    );
    processes.push(app);
    const endpoint = await lineOf(app.stderr!, /DevTools listening on (ws:\S+)/, 'Chromium');
    browser = await chromium.connectOverCDP(endpoint);
    const context = browser.contexts()[0]!;
    return context.pages()[0] ?? (await context.waitForEvent('page'));
  }

  it('shows this device’s Overview (plan, device, connection) on the display, every part where the page puts it', async () => {
    const display = await startDisplay();
    const page = await openWindow(display);

    // The right screen: the signed-in Overview of this device, in words a person reads.
    const parts: Record<string, Locator> = {
      heading: page.getByRole('heading', { level: 1, name: 'Overview' }),
      plan: page.getByRole('region', { name: 'Plan' }).getByTestId('plan-name').filter({ hasText: /^Pro$/ }),
      standing: page.getByTestId('standing').filter({ hasText: 'Your plan is active on this device.' }),
      device: page.getByText('This device: Studio PC', { exact: true }),
      networks: page.getByRole('region', { name: 'Networks' }).getByText('This device is in no network yet.'),
      connection: page
        .getByRole('navigation', { name: 'Meshwork' })
        .getByTestId('connection')
        .filter({ hasText: /^Online$/ }),
    };
    for (const part of Object.values(parts)) await part.waitFor();
    expect(page.url()).toBe(`${subject.control.origin}/`);
    expect(await page.getByRole('button', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));

    // Each part is on screen, inside the window, and takes room.
    const area = await page.evaluate(() => ({
      x: window.screenX + window.outerWidth - window.innerWidth,
      y: window.screenY + window.outerHeight - window.innerHeight,
      width: window.innerWidth,
      height: window.innerHeight,
    }));
    expect(area.width).toBeGreaterThan(WIDTH * 0.9);
    expect(area.height).toBeGreaterThan(HEIGHT * 0.9);
    const boxes: Record<string, { x: number; y: number; width: number; height: number }> = {};
    for (const [name, part] of Object.entries(parts)) {
      const box = await part.boundingBox();
      expect([name, box && box.width > 0 && box.height > 0]).toEqual([name, true]);
      expect([name, box!.x >= 0 && box!.y >= 0 && box!.x + box!.width <= area.width && box!.y + box!.height <= area.height]).toEqual([
        name,
        true,
      ]);
      // On the display, the whole pixels the part covers.
      const x = Math.floor(area.x + box!.x);
      const y = Math.floor(area.y + box!.y);
      boxes[name] = { x, y, width: Math.ceil(area.x + box!.x + box!.width) - x, height: Math.ceil(area.y + box!.y + box!.height) - y };
    }

    // The photograph of the display shows the page as Chromium renders it. The display lags
    // Chromium's own rendering until the window is painted: photograph until they agree.
    mkdirSync(resolve(SHOT, '..'), { recursive: true });
    const rendered = join(profile, 'rendered.png');
    const onDisplay = join(profile, 'on-display.png');
    const windowArea = `${area.width}x${area.height}+${area.x}+${area.y}`;
    let differing = Number.POSITIVE_INFINITY;
    for (const deadline = Date.now() + 30_000; differing > 0 && Date.now() < deadline;) {
      await writeFile(rendered, await page.screenshot());
      execFileSync('/usr/bin/import', ['-display', display, '-window', 'root', SHOT]);
      execFileSync('/usr/bin/convert', [SHOT, '-crop', windowArea, '+repage', onDisplay]);
      differing = differingPixels(rendered, onDisplay);
    }
    expect(differing).toBe(0);
    expect(execFileSync('/usr/bin/identify', ['-format', '%w×%h', SHOT]).toString()).toBe(`${WIDTH}×${HEIGHT}`);

    // And it is not blank where the parts are: each area holds rendered text, not one flat colour.
    for (const [name, box] of Object.entries(boxes)) expect([name, coloursIn(SHOT, box) > 2]).toEqual([name, true]);
  }, 90_000);
});
