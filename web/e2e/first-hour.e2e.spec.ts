/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issue 30: a new customer's first hour, walked whole in real Chromium against the real api and
 * the real app as the site serves it. They register, upgrade to Pro, download the app for Linux
 * from the dashboard, install the .deb into an empty directory, start it with no flags and only a
 * fresh home directory, sign it in with the device code at /activate, download the model, get
 * "Paris" in the playground, make an API key and get the same answer through the `openai` client.
 */
/// <reference lib="dom" />
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import OpenAI from 'openai';
import type { UploadResponse } from '@meshwork/contracts';
import type { Page } from 'playwright-core';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { recordAppearances } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { CAPITAL_OF_FRANCE, uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';
import { networksKit } from './networks-kit';

const root = resolve(__dirname, '../..');
const LINUX_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** The app's first lines: where its window is (with a one-time code) and where its OpenAI api listens. */
function announced(app: ChildProcess): Promise<{ ui: string; openai: string }> {
  return new Promise((done, fail) => {
    const seen: Record<string, string> = {};
    const output: string[] = [];
    createInterface({ input: app.stdout! }).on('line', (line) => {
      output.push(line);
      const [, kind, url] = /^meshwork-host (ui|openai-api) (\S+)$/.exec(line) ?? [];
      if (kind) seen[kind] = url!;
      if (seen.ui && seen['openai-api']) done({ ui: seen.ui, openai: seen['openai-api'] });
    });
    app.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    app.once('exit', (code) => fail(new Error(`the installed app exited (${code}) before starting:\n${output.join('\n')}`)));
  });
}

describe('a new customer’s first hour, from sign-up to a right answer on their own machine', () => {
  let site: BrowserTest;
  let work: string;
  let app: ChildProcess | undefined;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'first-hour-'));
    const releases = join(work, 'releases');
    site = await startBrowserTest({
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      STRIPE_SECRET_KEY: '',
      STRIPE_API_BASE: '',
      DESKTOP_RELEASES_DIR: releases,
    });
    // What `npm start` does on a fresh installation: the app built for this site's origin.
    execFileSync(
      process.execPath,
      [join(root, 'desktop/scripts/package.mjs'), '--platform', 'linux', '--origin', site.base, '--out', releases],
      {
        cwd: root,
        stdio: 'ignore',
      },
    );
    const staff = await networksKit(site).account(true);
    await uploadSmolLM2({ upload: (form) => uploadAs(site.base, staff.tokens.access, form) }, ['pro']);
  }, 300_000);

  afterAll(async () => {
    if (app && app.exitCode === null) {
      app.kill('SIGTERM');
      await new Promise((done) => app!.once('exit', done));
    }
    await site?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('registers, upgrades to Pro, installs the app for Linux and gets Paris in the window and through the API', async () => {
    const customer = await site.openPage(undefined, { userAgent: LINUX_BROWSER, acceptDownloads: true });
    await recordAppearances(customer);
    await register(customer, site.base);
    await upgradeToPro(customer, site.base);

    // The dashboard offers this visitor's platform first.
    await customer.goto(`${site.base}/dashboard`);
    const [download] = await Promise.all([
      customer.waitForEvent('download'),
      customer.getByRole('button', { name: 'Download for Linux (.deb)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Meshwork-Desktop-v\d+\.\d+\.\d+\.deb$/);
    const deb = join(work, download.suggestedFilename());
    await download.saveAs(deb);

    // Installed into an empty root, started with nothing but a fresh home directory.
    const installRoot = join(work, 'root');
    const home = join(work, 'home');
    await mkdir(installRoot);
    await mkdir(home);
    execFileSync('dpkg-deb', ['-x', deb, installRoot]);
    const launcher = join(installRoot, 'opt/meshwork/meshwork-host');
    expect(existsSync(launcher)).toBe(true);
    app = spawn(launcher, [], { env: { HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    const { ui, openai } = await announced(app);
    expect(existsSync(join(home, '.local/share/meshwork'))).toBe(true);

    // The window: signed in with the code shown, approved by the customer on the site.
    const window = await site.openPage();
    await window.goto(ui);
    await window.getByRole('button', { name: 'Sign in with your browser' }).click();
    const userCode = (await window.getByTestId('user-code').textContent())!.trim();
    await customer.goto(`${site.base}/activate?user_code=${userCode}`);
    await customer.getByLabel('Name this device').fill('Office PC');
    await customer.getByRole('button', { name: 'Approve' }).click();
    await customer.getByRole('status').getByText('You can return to your device', { exact: false }).waitFor();
    await window.getByTestId('plan-name').filter({ hasText: 'Pro' }).waitFor({ timeout: 30_000 });

    // The plan's model, downloaded and asked.
    await window.getByRole('button', { name: 'Models' }).click();
    const row = window.getByRole('listitem').filter({ hasText: 'SmolLM2 135M Instruct' });
    await row.getByRole('button', { name: 'Download' }).click();
    await row.getByTestId('model-status').filter({ hasText: 'Installed' }).waitFor({ timeout: 120_000 });
    await window.getByRole('button', { name: 'Chat' }).click();
    await window.getByLabel('Temperature').fill('0');
    await window.getByLabel('Message').fill('What is the capital of France?');
    await window.getByRole('button', { name: 'Send' }).click();
    const answer = window.locator('li[data-role="assistant"]').getByTestId('message-text');
    await answer.filter({ hasText: 'Paris' }).waitFor({ timeout: 60_000 });

    // A key made in the window, used by the `openai` client as the documentation prints it.
    await window.getByRole('button', { name: 'API keys' }).click();
    await window.getByLabel('Name').fill('Ticketing');
    await window.getByRole('button', { name: 'Create key' }).click();
    const apiKey = (await window.getByTestId('new-key').textContent())!;
    const client = new OpenAI({ baseURL: openai, apiKey, maxRetries: 0, timeout: 60_000 });
    const models = await client.models.list();
    const model = models.data[0]!.id;
    const completion = await client.chat.completions.create({ model, messages: CAPITAL_OF_FRANCE, temperature: 0 });
    expect(completion.choices[0]!.message.content).toContain('Paris');
  }, 600_000);
});

/** Staff's model upload, as the console sends it. */
async function uploadAs(base: string, token: string, form: FormData) {
  const response = await fetch(`${base}/api/v1/models/admin/upload/`, {
    method: 'POST',
    body: form,
    headers: { Authorization: `Bearer ${token}` },
  });
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as UploadResponse;
}

/** Signs up through the form, and skips the first-visit tour. */
async function register(page: Page, base: string): Promise<void> {
  const name = randomUUID().slice(0, 8);
  await page.goto(`${base}/register`);
  await page.getByLabel('Email', { exact: true }).fill(`${name}@example.com`);
  await page.getByLabel('Username').fill(`user_${name}`);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL(`${base}/dashboard`);
  const welcome = page.getByRole('dialog', { name: 'Welcome to Meshwork!' });
  await welcome.getByRole('button', { name: 'Skip Tour' }).click();
  await welcome.waitFor({ state: 'hidden' });
}

/** Pricing, the plan-change dialog and the simulated checkout. */
async function upgradeToPro(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/pricing`);
  await page.getByRole('article', { name: 'Free' }).getByRole('button', { name: 'Your Current Plan' }).waitFor();
  await page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Upgrade Plan' }).click();
  await page.getByRole('dialog', { name: 'Upgrade to Pro' }).getByRole('button', { name: 'Confirm Upgrade' }).click();
  await page.waitForURL(/\/checkout\/simulated\/[^/?]+$/);
  await page.getByRole('button', { name: 'Pay $29.00 (simulated)' }).click();
  await page.waitForURL(`${base}/billing`);
  await page.getByRole('region', { name: 'Current Plan' }).getByText('Pro', { exact: true }).waitFor();
}
