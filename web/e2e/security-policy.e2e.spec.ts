/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Page } from 'playwright-core';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, freePort, startBrowserTest } from '@meshwork/testkit/browser';
import { recordPolicyRefusals } from '@meshwork/testkit/policy-refusals';

/**
 * The customer site and the OpenAPI page in real Chromium under the policies the api sends
 * (Content-Security-Policy, Permissions-Policy): every page works and nothing is refused;
 * and no other site can frame the site or the console.
 */
describe('customer site: security policy in a real browser', () => {
  let site: BrowserTest;
  let base: string;

  beforeAll(async () => {
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    base = site.base;
  }, 120_000);
  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  /**
   * Sonner's stylesheet is a file of ours now; when it applies, its toaster is fixed in place.
   * Asked of a stand-in: the toaster itself leaves with its last toast, two seconds on.
   */
  const toasterPosition = (page: Page) =>
    page.evaluate(() => {
      const toaster = document.body.appendChild(document.createElement('ol'));
      toaster.setAttribute('data-sonner-toaster', '');
      const { position } = getComputedStyle(toaster);
      toaster.remove();
      return position;
    });

  it('runs the landing page, pricing, registration, the dashboard, sign-out and sign-in with nothing refused', async () => {
    const page = await site.openPage();
    const refused = await recordPolicyRefusals(page);
    await recordAppearances(page);

    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: /Run powerful AI/ }).waitFor();
    // The theme is applied before the first paint by /theme.js, not an inline script.
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toMatch(/^(light|dark)$/);

    await page.goto(`${base}/pricing`);
    await page.getByRole('article', { name: 'Pro' }).getByText('$29.00').waitFor();

    const name = randomUUID().slice(0, 8);
    const email = `${name}@example.com`;
    await page.goto(`${base}/register`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Username').fill(`user_${name}`);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${base}/dashboard`);
    await waitForAppearance(page, 'Registration successful!', { announced: true });
    expect(await toasterPosition(page)).toBe('fixed');
    await page.getByRole('dialog', { name: 'Welcome to Meshwork!' }).getByRole('button', { name: 'Skip Tour' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();

    await page.getByRole('button', { name: `user_${name}` }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await waitForAppearance(page, 'Logged out successfully', { announced: true });
    await page.goto(`${base}/login`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${base}/dashboard`);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();

    expect(refused).toEqual([]);
  }, 90_000);

  it('runs the OpenAPI page (Swagger UI) with nothing refused, and tries a call', async () => {
    const page = await site.openPage();
    const refused = await recordPolicyRefusals(page);
    await page.goto(`${base}/api/v1/docs`);
    const ping = page.locator('.opblock', { hasText: '/api/v1/health/ping' }).first();
    await ping.locator('.opblock-summary').click();
    await ping.getByRole('button', { name: 'Try it out' }).click();
    await ping.getByRole('button', { name: 'Execute' }).click();
    await ping.locator('.live-responses-table .response-col_status', { hasText: '200' }).waitFor();
    expect(refused).toEqual([]);
  });

  it('refuses to be framed by another site, the site and the console alike', async () => {
    // Another origin on this machine (a real server: Chromium keeps public pages from framing loopback at all).
    const framing = http.createServer((_request, response) =>
      response
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end(`<iframe name="site" src="${base}/"></iframe><iframe name="console" src="${base}/admin/"></iframe>`),
    );
    const port = await freePort();
    await new Promise<void>((resolve) => framing.listen(port, '127.0.0.1', resolve));
    try {
      const page = await site.openPage();
      await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
      for (const name of ['site', 'console']) {
        const frame = page.frame({ name });
        expect(frame).not.toBeNull();
        // A refused frame holds the browser's error page, never our app.
        expect(await frame!.evaluate(() => document.getElementById('root') !== null)).toBe(false);
      }
    } finally {
      framing.close();
    }
  });
});
