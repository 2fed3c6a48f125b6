/// <reference lib="dom" />
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page, Route } from 'playwright-core';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';

/** The pricing page's one call: public, so a visitor's page can be made to fail. */
const plansCall = (url: URL) => url.pathname === '/api/v1/subscriptions/plans/';

/**
 * Issue 15 §6 in real Chromium against the real api: a page whose data cannot load shows
 * the spec's error screen in place of its content (section 8), Try Again asks again, and an
 * unknown path gets a not-found page inside the site rather than the crash screen.
 *
 * On a copy of the site's build, prerendered without an api: /pricing then arrives loading its
 * plans, whatever `npm run bench:site` last prerendered into web/dist.
 */
describe('customer site: error screens in a real browser', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-error-screens-'));
  let site: BrowserTest;
  let base: string;

  beforeAll(async () => {
    const web = path.resolve(__dirname, '..');
    fs.cpSync(path.join(web, 'dist'), dist, { recursive: true });
    await promisify(execFile)(process.execPath, [path.join(web, 'scripts', 'prerender.mjs'), '--dist', dist], {
      env: { ...process.env, MESHWORK_PRERENDER_API: '' },
    });
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '', STRIPE_API_BASE: '' }, { webDist: dist });
    base = site.base;
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });
  afterEach(() => site.closePages());

  /** The screen shown for a failed load, named by its heading. */
  const failureScreen = (page: Page, title: string) => page.getByRole('alert', { name: title });

  /** Lets the plans call through again, presses Try Again, and expects the plans instead of the screen. */
  async function recovers(page: Page, title: string): Promise<void> {
    await page.unroute(plansCall);
    await failureScreen(page, title).getByRole('button', { name: 'Try Again' }).click();
    await page.getByRole('article', { name: 'Pro' }).waitFor();
    expect(await failureScreen(page, title).count()).toBe(0);
  }

  it.each([
    { status: 500, title: 'Server Error', text: 'Internal server error. Please try again later.' },
    { status: 502, title: 'Server Error', text: 'Service temporarily unavailable. Please try again later.' },
    { status: 503, title: 'Under Maintenance', text: "We're carrying out scheduled maintenance. Please check back in a few minutes." },
    { status: 504, title: 'Server Error', text: 'The server took too long to respond. Please try again in a moment.' },
    {
      status: 403,
      title: 'Access Denied',
      text: "You don't have permission to view this. Try signing in again, or contact support if you think this is a mistake.",
    },
  ])('answers $status with the $title screen and its text, and Try Again recovers', async ({ status, title, text }) => {
    const page = await site.openPage();
    // The screen's text is chosen by status: the body's own message must not leak into it.
    await page.route(plansCall, (route) => route.fulfill({ status, json: { message: 'stack trace from the server' } }));
    await page.goto(`${base}/pricing`);
    const screen = failureScreen(page, title);
    await screen.getByText(text, { exact: true }).waitFor();
    expect(await screen.getByText('stack trace from the server').count()).toBe(0);
    expect(await screen.getByText(/^HTTP \d+$/).count()).toBe(0);
    // The page stays: its heading above, the screen where the plan cards would be.
    await page.getByRole('heading', { name: 'Simple, transparent pricing', level: 1 }).waitFor();
    expect(await page.getByRole('article').count()).toBe(0);
    await recovers(page, title);
  });

  it('shows the generic Error screen with the server message and the HTTP status for any other answer', async () => {
    const page = await site.openPage();
    await recordAppearances(page);
    await page.route(plansCall, (route) => route.fulfill({ status: 404, json: { message: 'These plans went missing.' } }));
    await page.goto(`${base}/pricing`);
    const screen = failureScreen(page, 'Error');
    await screen.getByText('These plans went missing.', { exact: true }).waitFor();
    await screen.getByText('HTTP 404', { exact: true }).waitFor();
    // The catalogue's toast for this page still says what failed (for 5 s: its record is waited on).
    await waitForAppearance(page, 'Could not load pricing plans. Please try again later.', { announced: true });
    await recovers(page, 'Error');
  });

  it('shows Connection Problem when the request never reaches the server', async () => {
    const page = await site.openPage();
    await page.route(plansCall, (route) => route.abort('internetdisconnected'));
    await page.goto(`${base}/pricing`);
    await failureScreen(page, 'Connection Problem')
      .getByText('Unable to connect to the server. Please check your internet connection.', { exact: true })
      .waitFor();
    await recovers(page, 'Connection Problem');
  });

  it('shows Request Timeout when the server does not answer within the 30-second limit', async () => {
    const page = await site.openPage();
    // The page's clock is moved on rather than waiting a minute: the client's limit is a page timer.
    await page.clock.install();
    const unanswered: Route[] = [];
    await page.route(plansCall, (route) => void unanswered.push(route));
    const isPlansCall = (request: { url(): string }) => plansCall(new URL(request.url()));

    const first = page.waitForRequest(isPlansCall);
    await page.goto(`${base}/pricing`);
    await first;
    await page.getByText('Loading plans…').waitFor();
    // A timed-out read is tried once more (src/app/query-client.ts), so the limit passes twice.
    const retried = page.waitForRequest(isPlansCall);
    await page.clock.fastForward('00:31');
    await retried;
    expect(await failureScreen(page, 'Request Timeout').count()).toBe(0);
    await page.clock.fastForward('00:31');

    await failureScreen(page, 'Request Timeout')
      .getByText('The request took too long to complete. Please check your connection and try again.', { exact: true })
      .waitFor();
    expect(unanswered).toHaveLength(2);
    await recovers(page, 'Request Timeout');
  });

  it("shows the screen in place of a signed-in page's content, under the page's heading, and recovers", async () => {
    const customer = await registerAccount(site.subject.app, 'errors', randomUUID().slice(0, 8));
    const page = await site.openPage(customer);
    await recordAppearances(page);
    const subscriptionCall = (url: URL) => url.pathname === '/api/v1/subscriptions/subscription/';
    await page.route(subscriptionCall, (route) => route.fulfill({ status: 500, json: {} }));
    await page.goto(`${base}/billing`);

    const screen = failureScreen(page, 'Server Error');
    await screen.getByText('Internal server error. Please try again later.', { exact: true }).waitFor();
    await waitForAppearance(page, 'Failed to load billing information', { announced: true });
    await page.getByRole('heading', { name: 'Billing and Plans', level: 1 }).waitFor();
    expect(await page.getByRole('region', { name: 'Current Plan' }).count()).toBe(0);

    await page.unroute(subscriptionCall);
    await screen.getByRole('button', { name: 'Try Again' }).click();
    await page.getByRole('region', { name: 'Current Plan' }).getByText('Free', { exact: true }).first().waitFor();
    expect(await screen.count()).toBe(0);
  });

  /**
   * Answers 503 for the documentation page's own code while `failing()` says so; counts the tries.
   * No other page's code imports that file (the build shares code between pages in their files).
   */
  async function breakDocumentationCode(page: Page, failing: () => boolean) {
    let tries = 0;
    await page.route(
      (url) => /\/assets\/documentation-page-[\w-]+\.js$/.test(url.pathname),
      async (route) => {
        tries += 1;
        if (failing()) await route.fulfill({ status: 503, body: '' });
        else await route.continue();
      },
    );
    return () => tries;
  }

  /**
   * From a page that is awake (Pricing, once its plans show) to Documentation by the top bar:
   * the router loads the page's code then. Before the page wakes, the browser follows a link.
   */
  async function openDocumentationFromPricing(page: Page): Promise<void> {
    await page.goto(`${base}/pricing`);
    await page.getByRole('article', { name: 'Pro' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Documentation' }).click();
  }

  const documentationHeading = (page: Page) => page.getByRole('heading', { name: 'Get started with Meshwork', level: 1 });
  const crashHeading = (page: Page) => page.getByRole('heading', { name: 'Unexpected Application Error!' });

  it('shows a page whose code failed to arrive (a network that changed under the page) from a later try, without the error screen', async () => {
    const page = await site.openPage();
    let failures = 2;
    const tries = await breakDocumentationCode(page, () => failures-- > 0);
    await openDocumentationFromPricing(page);
    await documentationHeading(page).waitFor();
    expect(tries()).toBe(3);
    expect(await crashHeading(page).count()).toBe(0);
  });

  it('shows the error screen when a page’s code cannot be had after three tries, and Reload Page brings the page', async () => {
    const page = await site.openPage();
    let down = true;
    const tries = await breakDocumentationCode(page, () => down);
    await openDocumentationFromPricing(page);
    await crashHeading(page).waitFor();
    expect(tries()).toBe(3);

    down = false;
    await page.getByRole('button', { name: 'Reload Page' }).click();
    await documentationHeading(page).waitFor();
    expect(await crashHeading(page).count()).toBe(0);
  });

  it('answers an unknown path with a 404 status and the site’s not-found page, which wakes up and leads home', async () => {
    const page = await site.openPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(`${base}/no-such-page/anywhere`);
    expect(response?.status()).toBe(404);
    // The page is there before any script runs: prerendered, not an empty shell.
    expect(await response!.text()).toContain('Page Not Found');
    await page.getByRole('heading', { name: 'Page Not Found', level: 1 }).waitFor();
    await page.getByText(/The page you are looking for does not exist or has moved\./).waitFor();
    // Inside the usual frame: the top bar's links are there.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).waitFor();

    await page.getByRole('main').getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL(`${base}/`);
    // The address changes before the landing page renders: wait for its heading, then look.
    await page.getByRole('heading', { level: 1, name: /Run powerful AI/ }).waitFor();
    expect(await page.getByRole('heading', { name: 'Page Not Found' }).count()).toBe(0);
    // Only the document's own 404: the page hydrated without a mismatch and asked for nothing missing.
    expect(problems.filter((problem) => !problem.includes('404 (Not Found)'))).toEqual([]);
    expect(problems.length).toBeLessThanOrEqual(1);

    // The site's own paths are not caught: a signed-in page and a public one answer 200.
    for (const known of ['/dashboard', '/checkout/simulated/cs_test_123', '/pricing/']) {
      expect((await fetch(`${base}${known}`, { headers: { Accept: 'text/html' } })).status).toBe(200);
    }
  });
});
