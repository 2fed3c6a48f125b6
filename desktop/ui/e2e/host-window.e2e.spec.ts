/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issue 14, section 6: the host's window in real Chromium, served by the runtime against the
 * real api: sign-in, the plan, a model downloaded, a streamed chat, API keys, Persian.
 */
/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { launchBrowser } from '@meshwork/testkit/browser';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';
import { uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';

describe('the host’s window in a real browser', () => {
  let world: NetworksWorld;
  let subject: TestHost;
  let browser: Browser;
  let page: Page;
  let model: { name: string; id: string };
  let email: string;

  beforeAll(async () => {
    world = await networksWorld();
    model = await uploadSmolLM2(world, ['pro']);
    email = (await world.customer('pro')).email;
    subject = await startHost(world.base);
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(subject.control.windowUrl());
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await subject?.close();
    await world?.close();
  });

  it('opens only through a one-time link: another page on this machine gets the sign-in page', async () => {
    const stranger = await browser.newPage();
    const answer = await stranger.goto(subject.control.origin);
    expect(answer?.status()).toBe(401);
    await stranger.getByRole('heading', { name: 'Meshwork is running on this computer' }).waitFor();
    expect(await stranger.textContent('body')).toContain('start Meshwork again');
    await stranger.close();
    // The code has become a cookie: the address bar no longer holds it.
    expect(page.url()).toBe(`${subject.control.origin}/`);
  });

  it('signs in with email and password after a wrong one, then shows the plan online', async () => {
    await page.getByRole('heading', { name: 'Sign in to Meshwork' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Wrong-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();

    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('plan-name').filter({ hasText: 'Pro' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('connection').filter({ hasText: 'Online' }).waitFor();
    expect(await page.getByTestId('standing').textContent()).toBe('Your plan is active on this device.');
    // Started without a release's keys (as a copy run from the sources is): the window says where its trust comes from.
    expect(await page.getByTestId('trust-source').textContent()).toBe('Keys: pinned at first sign-in (run from source)');
    expect(await page.getByTestId('trust-problem').count()).toBe(0);
  });

  it('downloads the plan’s model and shows it installed', async () => {
    await page.getByRole('button', { name: 'Models' }).click();
    const row = page.getByRole('listitem', { name: 'SmolLM2 135M Instruct' });
    expect(await row.getByTestId('model-status').textContent()).toBe('Not downloaded');
    await row.getByRole('button', { name: 'Download' }).click();
    await row.getByTestId('model-status').filter({ hasText: 'Installed' }).waitFor({ timeout: 120_000 });
    expect(await row.getByRole('button', { name: 'Remove' }).isEnabled()).toBe(true);
  }, 150_000);

  it('streams a chat answer from the model on this device', async () => {
    await page.getByRole('button', { name: 'Chat' }).click();
    await page.getByLabel('Temperature').fill('0');
    await page.getByLabel('Message').fill('What is the capital of France?');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.locator('li[data-role="assistant"]').getByTestId('message-text');
    await answer.filter({ hasText: 'The capital of France is Paris.' }).waitFor({ timeout: 60_000 });
    expect(await answer.textContent()).toBe('The capital of France is Paris.');
    await page.getByRole('button', { name: 'Send' }).waitFor();
  }, 90_000);

  it('creates an API key shown once, which a LAN client then uses, and revokes it', async () => {
    await page.getByRole('button', { name: 'API keys' }).click();
    await page.getByText(subject.openaiBase).waitFor();
    await page.getByLabel('Name').fill('Laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^mw-/);
    const listed = await fetch(`${subject.openaiBase}/models`, { headers: { Authorization: `Bearer ${key}` } });
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual([model.name]);

    page.once('dialog', (dialog) => void dialog.accept());
    await page
      .getByRole('row', { name: /Laptop/ })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await page.getByText('No keys yet.').waitFor();
    expect((await fetch(`${subject.openaiBase}/models`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it('speaks Persian, right to left, and remembers it', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Language').selectOption('fa');
    await page.getByRole('button', { name: 'مدل‌ها' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['fa', 'rtl']);
    await page.reload();
    await page.getByRole('heading', { name: 'تنظیمات' }).waitFor();
    await page.getByLabel('زبان').selectOption('en');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
  });

  it('signs out from Settings back to the sign-in screen', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Meshwork' }).waitFor();
    expect((await subject.state()).account.status).toBe('signed-out');
  });
});
