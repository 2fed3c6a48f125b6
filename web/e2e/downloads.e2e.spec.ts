/// <reference lib="dom" />
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { registerAccount, subscribeToPro, TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import type { TestApp } from '@meshwork/testkit/api/test-app';
import type { AuthResponse, InstallationGuide } from '@meshwork/contracts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import request from 'supertest';
import type { TestCustomer } from '@meshwork/testkit/api/accounts';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';

const PASSWORD = TEST_PASSWORD;
/** The dashboard's Usage card with a device's report, kept as the CI's artifact. */
const USAGE_SHOT = resolve(__dirname, '../../test-results/dashboard-usage.png');
// The browser's user agent says the visitor's platform (Chromium derives its client hints from it).
const WINDOWS_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const LINUX_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const MAC_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/**
 * The dashboard's downloads in real Chromium against the real api and storage (MinIO): the
 * desktop files for the visitor's platform and the others, and the models a plan allows,
 * downloaded to disk and then listed.
 */
describe('customer site: desktop app and model downloads in a real browser', () => {
  let site: BrowserTest;
  let subject: TestApp;
  let base: string;
  let staff: AuthResponse;
  let freeUser: AuthResponse;
  let proUser: AuthResponse;
  const tag = randomUUID().slice(0, 6);
  // An installer and a model whose bytes are checked after the browser saved them.
  const installer = Buffer.concat([Buffer.from('MZ'), randomBytes(48 * 1024)]);
  const linuxPackage = Buffer.concat([Buffer.from('!<arch>\n'), randomBytes(24 * 1024)]);
  const linuxArchive = Buffer.concat([Buffer.from([0x1f, 0x8b]), randomBytes(16 * 1024)]);
  const modelFile = randomBytes(3 * 1024);

  /** A call to the api as `session`, failing the test on an error answer. */
  async function call<T>(session: AuthResponse, path: string, init: { method?: string; json?: object; form?: FormData } = {}): Promise<T> {
    const response = await fetch(`${base}/api/v1${path}`, {
      method: init.method ?? (init.json || init.form ? 'POST' : 'GET'),
      headers: {
        Authorization: `Bearer ${session.tokens.access}`,
        ...(init.json ? { 'Content-Type': 'application/json' } : {}),
      },
      body: init.form ?? (init.json ? JSON.stringify(init.json) : undefined),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? 'call'} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Staff upload one file of a desktop release for its platform and publish it at once: customers get the newest such. */
  async function publishRelease(version: string, bytes: Buffer, platform = 'windows', name = 'installer.exe'): Promise<void> {
    const form = new FormData();
    form.append('version', version);
    form.append('release_notes', `Release ${version} for the browser tests.`);
    form.append('platform', platform);
    form.append('publish', 'true');
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    await call(staff, '/models/admin/releases/', { form });
  }

  beforeAll(async () => {
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '', STRIPE_API_BASE: '' });
    ({ subject, base } = site);
    const register = (name: string, isStaff = false) => registerAccount(subject.app, name, tag, isStaff);
    [staff, freeUser, proUser] = await Promise.all([register('staff', true), register('freda'), register('paul')]);
    // Past the first-visit onboarding, so the dashboard is not behind its modal.
    for (const user of [freeUser, proUser])
      await call(user, '/users/preferences/', { method: 'PATCH', json: { onboarding_completed: true, show_onboarding: false } });
    await subscribeToPro(base, proUser.tokens.access);

    const model = new FormData();
    model.append('name', 'tiny_pro_model');
    model.append('display_name', 'Tiny Pro Model');
    model.append('description', 'A model only Pro subscribers may download.');
    model.append('version', '1.0.0');
    model.append('allowed_plans', JSON.stringify(['pro']));
    model.append('checksums', JSON.stringify({ 'model.onnx': createHash('sha256').update(modelFile).digest('hex') }));
    model.append('files', new Blob([modelFile]), 'model.onnx');
    await call(staff, '/models/admin/upload/', { form: model });
  }, 120_000);

  afterAll(() => site?.close());

  /**
   * A fresh tab that saves downloads: signed in as `session`, or a visitor's. It records what
   * appears, so a two-second toast or completed state is found however late the test looks.
   */
  async function newPage(session?: AuthResponse, userAgent = WINDOWS_UA): Promise<Page> {
    const page = await site.openPage(session, { acceptDownloads: true, viewport: { width: 1400, height: 1000 }, userAgent });
    await recordAppearances(page);
    return page;
  }

  /** The dashboard of `session`, signed in, on a computer of the user agent's platform (Windows unless said). */
  async function dashboardOf(session: AuthResponse, userAgent?: string): Promise<Page> {
    const page = await newPage(session, userAgent);
    await page.goto(`${base}/dashboard`);
    await page.getByRole('region', { name: 'Available Models' }).waitFor();
    return page;
  }

  it('with nothing to download yet says so, and offers no download button at all', async () => {
    const page = await dashboardOf(freeUser);
    const desktop = page.getByRole('region', { name: 'Desktop App' });
    await desktop.getByText('No version available for download', { exact: false }).waitFor();
    expect(await desktop.getByRole('button').count()).toBe(0);
    const visitor = await newPage();
    await visitor.goto(`${base}/download`);
    await visitor.getByText('No version is available for download yet.').waitFor();
    await Promise.all([page.context().close(), visitor.context().close()]);
  });

  it('shows a Pro user what their devices ran: tokens per day, per model and per device over 90 days', async () => {
    // A desktop host signed in by the device grant, reporting an hour of work as hosts do.
    const owner = {
      post: (path: string, json: object) =>
        request(subject.app.getHttpServer()).post(`/api/v1${path}`).set('Authorization', `Bearer ${proUser.tokens.access}`).send(json),
    };
    const device = await signInDevice(deviceHost(subject.app), owner as unknown as TestCustomer, 'Studio workstation');
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    const reported = await fetch(`${base}/api/v1/devices/usage-reports/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${device.access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        reports: [{ model: 'tiny_pro_model', hour, requests: 12, prompt_tokens: 900, completion_tokens: 334, busy_ms: 42_000 }],
      }),
    });
    expect(reported.status).toBe(200);

    const page = await dashboardOf(proUser);
    const usage = page.getByRole('region', { name: 'Usage' });
    await usage.getByText('Last 90 days', { exact: false }).waitFor();
    await usage
      .locator('dt:text-is("Tokens") + dd')
      .filter({ hasText: /^1,234$/ })
      .waitFor();
    await usage.getByRole('img', { name: 'Tokens per day: 1,234 over 90 days' }).waitFor();
    const models = usage.getByRole('table', { name: 'Usage per model' });
    await models.getByRole('row', { name: 'tiny_pro_model 12 1,234 42 s' }).waitFor();
    await usage.getByRole('table', { name: 'Usage per device' }).getByRole('row', { name: 'Studio workstation 12 1,234 42 s' }).waitFor();
    mkdirSync(resolve(USAGE_SHOT, '..'), { recursive: true });
    await usage.screenshot({ path: USAGE_SHOT });
    await page.context().close();
  });

  describe('with releases for Windows and Linux', () => {
    beforeAll(async () => {
      await publishRelease('2.1.0', installer);
      await publishRelease('2.1.0', linuxPackage, 'linux', 'meshwork.deb');
      await publishRelease('2.1.0', linuxArchive, 'linux', 'meshwork.tar.gz');
    }, 60_000);

    it('does not list a Pro-only model on a free dashboard, and offers the newest desktop release', async () => {
      const page = await dashboardOf(freeUser);
      const models = page.getByRole('region', { name: 'Available Models' });
      await models.getByText('No AI models are available on your plan yet.').waitFor();
      expect(await models.getByText('Tiny Pro Model').count()).toBe(0);

      const desktop = page.getByRole('region', { name: 'Desktop App' });
      await desktop.getByText('Meshwork Desktop v2.1.0 for Windows', { exact: false }).waitFor();
      // Never downloaded: nothing to update, whatever the release.
      expect(await desktop.getByRole('status').count()).toBe(0);
      const usage = page.getByRole('region', { name: 'Usage' });
      await usage.getByText('No downloads yet.').waitFor();
      // Nothing run on a device yet: the card says how to get figures, over the free plan's week.
      await usage.getByText('No usage yet. Run a model on one of your devices', { exact: false }).waitFor();
      await usage.getByText('Last 7 days', { exact: false }).waitFor();
      await page.context().close();
    });

    it('lets a Pro user download the desktop app to disk, then lists it among recent downloads', async () => {
      const page = await dashboardOf(proUser);
      const model = page.getByRole('region', { name: 'Available Models' }).getByRole('listitem', { name: 'Tiny Pro Model' });
      await model.getByText('v1.0.0').waitFor();
      await model.getByText('A model only Pro subscribers may download.').waitFor();
      await model.getByText('3 KB · 1 block').waitFor();

      const desktop = page.getByRole('region', { name: 'Desktop App' });
      await desktop.getByText('Meshwork Desktop v2.1.0 for Windows', { exact: false }).waitFor();
      expect(await page.getByText('Latest version 2.1.0 for Windows').count()).toBe(0); // the version shows once, in the panel
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        desktop.getByRole('button', { name: 'Download for Windows (.exe)' }).click(),
      ]);
      // Both last two seconds (spec sections 4 and 9): their records are waited on, not the messages.
      await waitForAppearance(page, 'Download complete', { region: 'Desktop App' });
      await waitForAppearance(page, 'Successfully downloaded Meshwork Desktop v2.1.0', { announced: true });
      expect(download.suggestedFilename()).toBe('Meshwork-Desktop-v2.1.0.exe');
      expect((await fs.readFile(await download.path())).equals(installer)).toBe(true);
      // Spec section 4: the completed state clears by itself: the panel is idle again, ready for another download.
      await desktop.getByText('Download complete').waitFor({ state: 'hidden' });
      expect(await desktop.getByRole('progressbar').count()).toBe(0);

      const analytics = page.getByRole('region', { name: 'Usage' });
      await analytics.getByRole('list', { name: 'Recent Downloads' }).getByText('Meshwork Desktop v2.1.0').waitFor();
      await analytics.locator('dt:text-is("Total downloads") + dd').filter({ hasText: /^1$/ }).waitFor();
      await analytics.locator('dt:text-is("Last 30 days") + dd').filter({ hasText: /^1$/ }).waitFor();
      await page.context().close();
    });

    it('lists a Pro user’s models without saving their files: it points to the desktop app, which downloads them', async () => {
      const page = await dashboardOf(proUser);
      const models = page.getByRole('region', { name: 'Available Models' });
      await models.getByRole('listitem', { name: 'Tiny Pro Model' }).getByText('3 KB · 1 block').waitFor();
      await models.getByText('You download them in the Meshwork desktop app', { exact: false }).waitFor();
      expect(await models.getByRole('button').count()).toBe(0);
      await models.getByRole('link', { name: 'How to install the app' }).click();
      await page.waitForURL(`${base}/documentation#install-the-app`);
      await page.getByRole('heading', { level: 2, name: 'Install the app' }).waitFor();
      await page.context().close();
    });

    // Before the test that publishes 2.2.0: the current release here is still 2.1.0.
    it('shows a visitor the /download page, and brings them back to it after signing in', async () => {
      const guide = (await (await fetch(`${base}/api/v1/downloads/installation-guide/`)).json()) as InstallationGuide;
      const page = await newPage();
      await page.goto(`${base}/download`);
      await page.getByRole('heading', { level: 1, name: 'Download Meshwork Desktop' }).waitFor();
      await page.getByText('Latest version 2.1.0 for Windows').waitFor();

      const steps = page.getByRole('region', { name: guide.title }).locator('ol').first().getByRole('listitem');
      await steps.first().waitFor();
      // Each step shows its number, then the api's text, in the api's order; Windows's own steps follow first.
      expect(await steps.allTextContents()).toEqual(guide.steps.map((step, index) => `${index + 1}${step}`));
      const platforms = page.getByRole('region', { name: guide.title }).getByRole('region');
      expect(await platforms.evaluateAll((sections) => sections.map((section) => section.getAttribute('aria-label')))).toEqual([
        'Install on Windows',
        'Install on Linux',
      ]);
      await platforms.first().getByText('no administrator rights are needed', { exact: false }).waitFor();

      const getTheApp = page.getByRole('region', { name: 'Get the Desktop App' });
      expect(await getTheApp.getByRole('link', { name: 'Create Free Account' }).getAttribute('href')).toBe('/register');
      // A visitor cannot download: the signed-in panel is not there.
      expect(await page.getByRole('region', { name: 'Desktop App', exact: true }).count()).toBe(0);

      await getTheApp.getByRole('link', { name: 'Sign In' }).click();
      await page.waitForURL(`${base}/login`);
      await page.getByLabel('Email', { exact: true }).fill(freeUser.user.email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`${base}/download`);
      await page
        .getByRole('region', { name: 'Desktop App', exact: true })
        .getByText('Meshwork Desktop v2.1.0 for Windows', { exact: false })
        .waitFor();
      expect(await page.getByRole('region', { name: 'Get the Desktop App' }).count()).toBe(0);
      await page.context().close();
    });

    it('lets a signed-in Pro user download the desktop app to disk from /download', async () => {
      const page = await newPage(proUser);
      await page.goto(`${base}/download`);
      const desktop = page.getByRole('region', { name: 'Desktop App', exact: true });
      await desktop.getByText('Meshwork Desktop v2.1.0 for Windows', { exact: false }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        desktop.getByRole('button', { name: 'Download for Windows (.exe)' }).click(),
      ]);
      await waitForAppearance(page, 'Download complete', { region: 'Desktop App' });
      expect(download.suggestedFilename()).toBe('Meshwork-Desktop-v2.1.0.exe');
      expect((await fs.readFile(await download.path())).equals(installer)).toBe(true);
      await page.context().close();
    });

    it('shows the update banner once a newer release than the one downloaded is published', async () => {
      await publishRelease('2.2.0', Buffer.concat([Buffer.from('MZ'), randomBytes(1024)]));
      const page = await dashboardOf(proUser);
      const desktop = page.getByRole('region', { name: 'Desktop App' });
      await desktop.getByRole('status').getByText('Version 2.2.0 is available. Download it to update your desktop app.').waitFor();

      // Someone who never downloaded the app has nothing to update.
      const fresh = await dashboardOf(freeUser);
      await fresh.getByRole('region', { name: 'Desktop App' }).getByText('Meshwork Desktop v2.2.0 for Windows', { exact: false }).waitFor();
      expect(await fresh.getByRole('region', { name: 'Desktop App' }).getByRole('status').count()).toBe(0);
      await Promise.all([page.context().close(), fresh.context().close()]);
    });

    // After the update banner's test: Windows has 2.2.0, Linux still 2.1.0.
    it('offers a Linux visitor the .deb first, lists the other files, and shows the Linux install steps', async () => {
      const page = await dashboardOf(freeUser, LINUX_UA);
      const desktop = page.getByRole('region', { name: 'Desktop App' });
      await desktop.getByText('Meshwork Desktop v2.1.0 for Linux.', { exact: false }).waitFor();
      const others = desktop.getByRole('region', { name: 'Other downloads' });
      expect(await others.getByRole('button').allTextContents()).toEqual(['Windows installer', 'Linux archive (.tar.gz)']);
      await others.getByText('v2.2.0', { exact: false }).waitFor();
      const steps = desktop.getByRole('region', { name: 'Install on Linux' });
      await steps.getByText('sudo apt install ./Meshwork-Desktop-v2.1.0.deb').waitFor();
      await steps.getByText('meshwork-host', { exact: true }).waitFor();

      const [deb] = await Promise.all([
        page.waitForEvent('download'),
        desktop.getByRole('button', { name: 'Download for Linux (.deb)' }).click(),
      ]);
      await waitForAppearance(page, 'Successfully downloaded Meshwork Desktop v2.1.0', { announced: true });
      expect(deb.suggestedFilename()).toBe('Meshwork-Desktop-v2.1.0.deb');
      expect((await fs.readFile(await deb.path())).equals(linuxPackage)).toBe(true);
      await desktop.getByText('Download complete').waitFor({ state: 'hidden' });

      const [archive] = await Promise.all([
        page.waitForEvent('download'),
        others.getByRole('button', { name: 'Linux archive (.tar.gz)' }).click(),
      ]);
      expect(archive.suggestedFilename()).toBe('Meshwork-Desktop-v2.1.0.tar.gz');
      expect((await fs.readFile(await archive.path())).equals(linuxArchive)).toBe(true);
      await page.context().close();
    });

    it('tells a Mac visitor plainly that macOS is not yet available, and lists every file', async () => {
      const page = await dashboardOf(freeUser, MAC_UA);
      const desktop = page.getByRole('region', { name: 'Desktop App' });
      await desktop.getByText('Meshwork Desktop is not yet available for macOS.', { exact: false }).waitFor();
      expect(await desktop.getByRole('button', { name: /^Download for/ }).count()).toBe(0);
      expect(await desktop.getByRole('region', { name: 'Other downloads' }).getByRole('button').allTextContents()).toEqual([
        'Windows installer',
        'Linux (.deb)',
        'Linux archive (.tar.gz)',
      ]);
      await page.context().close();
    });

    it('shows a Linux visitor on /download the Linux version and the Linux steps first', async () => {
      const page = await newPage(undefined, LINUX_UA);
      await page.goto(`${base}/download`);
      await page.getByText('Latest version 2.1.0 for Linux').waitFor();
      const guide = page.getByRole('region', { name: 'Installing the Meshwork desktop host' });
      await guide.getByRole('region', { name: 'Install on Linux' }).waitFor();
      expect(
        await guide.getByRole('region').evaluateAll((sections) => sections.map((section) => section.getAttribute('aria-label'))),
      ).toEqual(['Install on Linux', 'Install on Windows']);
      await page.context().close();
    });
  });
});
