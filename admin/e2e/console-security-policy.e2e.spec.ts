import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { TEST_PASSWORD, registerAccount } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { recordPolicyRefusals } from '@meshwork/testkit/policy-refusals';
import { type AuthResponse, RESUMABLE_THRESHOLD_BYTES } from '@meshwork/contracts';
import { ensureConsoleBuilt } from './console-kit';

/**
 * The staff console in real Chromium under the policy the api sends it: emotion's styles
 * (by nonce), the WebAssembly hasher and part uploads straight to storage (MinIO, another
 * origin) all work, and nothing is refused.
 */
describe('staff console: security policy in a real browser', () => {
  let site: BrowserTest;
  let base = '';
  let scratch = '';
  let staff: AuthResponse;
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    ensureConsoleBuilt();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'console-policy-'));
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    base = site.base;
    staff = await registerAccount(site.subject.app, 'staff', tag, true);
  }, 240_000);
  afterAll(async () => {
    await site?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });
  afterEach(() => site.closePages());

  /** MUI's styles are emotion's <style> elements: when they apply, the app bar is a flex box. */
  const appBarDisplay = (page: Page) =>
    page
      .locator('header.MuiAppBar-root')
      .first()
      .evaluate((bar) => getComputedStyle(bar).display);

  it('signs in through the site, then shows the dashboard, users and models with nothing refused', async () => {
    const page = await site.openPage(null, { viewport: { width: 1400, height: 900 } });
    const refused = await recordPolicyRefusals(page);
    await page.goto(`${base}/admin/`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Email', { exact: true }).fill(staff.user.email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/admin'));
    await page.getByText('Total users').waitFor();
    expect(await appBarDisplay(page)).toBe('flex');

    await page.goto(`${base}/admin/users`);
    await page.locator('tbody tr', { hasText: `staff_${tag}` }).waitFor();
    await page.goto(`${base}/admin/models`);
    await page.getByRole('tab', { name: 'Models', selected: true }).waitFor();
    expect(refused).toEqual([]);
  }, 60_000);

  it('hashes a model with WebAssembly and sends its parts straight to storage, with nothing refused', async () => {
    const size = RESUMABLE_THRESHOLD_BYTES + 1024 * 1024;
    const weights = path.join(scratch, 'weights.bin');
    fs.closeSync(fs.openSync(weights, 'w'));
    fs.truncateSync(weights, size); // sparse: zeros, read and hashed by the browser all the same
    const sha256 = createHash('sha256').update(Buffer.alloc(size)).digest('hex');
    const displayName = `Policy model ${tag}`;

    const page = await site.openPage(staff, { viewport: { width: 1600, height: 1000 } });
    await recordAppearances(page); // the upload's toast lasts seconds
    const refused = await recordPolicyRefusals(page);
    const partsToStorage: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (response.request().method() === 'PUT' && url.searchParams.has('partNumber'))
        partsToStorage.push(`${response.status()} ${url.origin}`);
    });
    await page.goto(`${base}/admin/models`);
    await page.getByRole('button', { name: 'Upload Model' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload AI Model' });
    await dialog.getByLabel('Model name').fill(`policy_${tag}`);
    await dialog.getByLabel('Display name').fill(displayName);
    await dialog.getByRole('checkbox', { name: 'Pro Plan' }).check();
    await dialog.locator('input[type=file]').setInputFiles(weights);
    await dialog
      .locator('[data-state=processed]', { hasText: 'weights.bin' })
      .getByText(`SHA-256 ${sha256.slice(0, 8)}`)
      .waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Upload Model' }).click();
    await waitForAppearance(page, `Model "${displayName}" uploaded successfully!`, { announced: true }, 90_000);

    expect(partsToStorage.length).toBeGreaterThan(0);
    expect(new Set(partsToStorage)).toEqual(new Set([`200 ${new URL(process.env.S3_ENDPOINT!).origin}`]));
    expect(refused).toEqual([]);
  }, 180_000);
});
