/**
 * Issue 14, section 6: the host's window as a person sees it. Chromium opens the runtime's
 * launch link as an app window (`--app`, as the runtime does where Electron is absent) on a
 * virtual display (Xvfb), and the display is photographed: test-results/host-window.png.
 * `npm test` installs Xvfb and ImageMagick (Debian packages) when they are missing.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { networksWorld, type NetworksWorld } from '../../../api/src/networks/testing/network-kit';
import { startHost, type TestHost } from '../../src/runtime/testing/host-harness';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOT = resolve(__dirname, '../../../test-results/host-window.png');
const WIDTH = 1100;
const HEIGHT = 720;

describe('the host’s window on a display', () => {
  let world: NetworksWorld;
  let subject: TestHost;
  let profile: string;
  const processes: ChildProcess[] = [];

  beforeAll(async () => {
    for (const tool of ['/usr/bin/Xvfb', '/usr/bin/import', CHROMIUM])
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
    for (const child of processes) child.kill('SIGKILL');
    await subject?.close();
    await world?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('shows the signed-in window, photographed from the display', async () => {
    const display = `:${90 + Math.floor(Math.random() * 400)}`;
    const listeners = subject.host.listenerCount('state');
    const xvfb = spawn('/usr/bin/Xvfb', [display, '-screen', '0', `${WIDTH}x${HEIGHT}x24`, '-nolisten', 'tcp'], { stdio: 'ignore' });
    processes.push(xvfb);
    const chromium = spawn(
      CHROMIUM,
      [
        `--app=${subject.control.launchUrl}`,
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
      ],
      { stdio: 'ignore', env: { ...process.env, DISPLAY: display } },
    );
    processes.push(chromium);

    // The window has loaded its page once that page follows the host's state (GET /host/events).
    await subject.until(() => subject.host.listenerCount('state') > listeners, 30_000, 'the window following the state');
    // The display is black until Chromium paints, then a page of text has hundreds of colours
    // (anti-aliased glyphs): wait for that, and keep the picture.
    mkdirSync(resolve(SHOT, '..'), { recursive: true });
    let colours = 0;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 1000));
      try {
        execFileSync('/usr/bin/import', ['-display', display, '-window', 'root', SHOT], { stdio: 'ignore' });
        colours = Number(execFileSync('/usr/bin/identify', ['-format', '%k', SHOT]).toString());
      } catch {
        continue; // the display is not up yet
      }
      if (colours > 200) break;
    }
    expect(colours).toBeGreaterThan(200);
    expect(execFileSync('/usr/bin/identify', ['-format', '%w×%h', SHOT]).toString()).toBe(`${WIDTH}×${HEIGHT}`);
  }, 60_000);
});
