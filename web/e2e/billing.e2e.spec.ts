/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';

const PASSWORD = TEST_PASSWORD;

/** Pricing, plan changes, the simulated checkout and billing, in real Chromium against the real api. */
describe('customer site: plans and billing in a real browser', () => {
  let site: BrowserTest;
  let base: string;

  beforeAll(async () => {
    // No Stripe: checkout is the api's built-in simulation, served by the site at /checkout/simulated/{id}.
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '', STRIPE_API_BASE: '' });
    base = site.base;
  }, 120_000);
  afterAll(() => site?.close());

  /** A visitor's tab, recording what appears (a toast lasts seconds). */
  async function newPage(): Promise<Page> {
    const page = await site.openPage();
    await recordAppearances(page);
    return page;
  }

  /** A new free user, signed in on the dashboard with the first-visit onboarding skipped. */
  async function signUp(page: Page): Promise<void> {
    const name = randomUUID().slice(0, 8);
    await page.goto(`${base}/register`);
    await page.getByLabel('Email', { exact: true }).fill(`${name}@example.com`);
    await page.getByLabel('Username').fill(`user_${name}`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${base}/dashboard`);

    const welcome = page.getByRole('dialog', { name: 'Welcome to Meshwork!' });
    await welcome.getByRole('button', { name: 'Skip Tour' }).click();
    await page.getByText('You can always access the tour later from the help menu.').waitFor();
    await welcome.waitFor({ state: 'hidden' });
  }

  /** Subscribes the page's user to Pro through the api, as the site's dialog and checkout page do. */
  async function subscribeToProByApi(page: Page): Promise<void> {
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const call = async (path: string, body: object = {}) => {
      const response = await fetch(`${base}/api/v1${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.ok).toBe(true);
      return (await response.json()) as { payment_url?: string };
    };
    const created = await call('/subscriptions/create/', { plan_id: 'pro', payment_method: 'stripe', billing_cycle: 'monthly' });
    const sessionId = created.payment_url?.split('/').pop();
    expect(sessionId).toBeTruthy();
    await call(`/subscriptions/simulated-checkout/${sessionId}/complete/`);
    await call('/subscriptions/verify/', { session_id: sessionId });
  }

  it('shows a visitor the three plans, and the annual toggle changes the prices', async () => {
    const page = await newPage();
    await page.goto(`${base}/pricing`);
    const cards = page.getByRole('article');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(3);
    expect(await cards.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(['Free', 'Pro', 'Enterprise']);

    const pro = page.getByRole('article', { name: 'Pro' });
    await pro.getByText('Most Popular').waitFor();
    await pro.getByText('$29.00').waitFor();
    await pro.getByRole('link', { name: 'Get Started' }).waitFor();
    await page.getByRole('article', { name: 'Enterprise' }).getByRole('link', { name: 'Contact Sales' }).waitFor();

    // Annual: the server's 12 x 29 x 0.83, and 12 x 29 x 0.17 saved.
    await page.getByRole('button', { name: /Annual/ }).click();
    await pro.getByText('$288.84').waitFor();
    await pro.getByText('Save $59.16 per year').waitFor();
    expect(await pro.getByText('$29.00').count()).toBe(0);
    await page.getByRole('button', { name: 'Monthly' }).click();
    await pro.getByText('$29.00').waitFor();

    await page.getByRole('button', { name: 'Show Detailed Comparison' }).click();
    await page.getByRole('row', { name: /Max Networks\s*1\s*5\s*Unlimited/ }).waitFor();
    await page.getByRole('row', { name: /API Access\s*Limited\s*Full\s*Full \+ Webhooks/ }).waitFor();
    await page.getByText('No credit card required • Cancel anytime • 14-day free trial').waitFor();
    await page.context().close();
  });

  it('upgrades a free user to Pro through the plan-change dialog and the simulated checkout', async () => {
    const page = await newPage();
    await signUp(page);

    await page.goto(`${base}/pricing`);
    await page.getByRole('article', { name: 'Free' }).getByRole('button', { name: 'Your Current Plan' }).waitFor();
    await page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Upgrade Plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' });
    await dialog.getByText(/takes effect immediately/).waitFor();
    await dialog.getByRole('button', { name: 'Confirm Upgrade' }).click();

    await page.waitForURL(/\/checkout\/simulated\/[^/?]+$/);
    await page.getByText('Simulated checkout — no real payment is taken').waitFor();
    await page.getByRole('button', { name: 'Pay $29.00 (simulated)' }).click();

    // Back on billing, the session is verified once and the query parameters are dropped.
    await page.waitForURL(/\/billing\?checkout=success&session_id=/);
    await waitForAppearance(page, 'Subscription updated successfully!', { announced: true });
    await page.waitForURL(`${base}/billing`);
    await page.getByRole('region', { name: 'Current Plan' }).getByText('Pro', { exact: true }).waitFor();
    await page
      .getByRole('region', { name: 'Payment History' })
      .getByRole('row', { name: /\$29\.00.*completed/i })
      .waitFor();

    await page.goto(`${base}/dashboard`);
    await page.getByRole('group', { name: 'Current Plan' }).getByText('Pro', { exact: true }).waitFor();
    // A plan that carries on renews: it does not expire.
    await page.getByRole('group', { name: 'Plan Renews' }).getByText(/\d/).waitFor();
    expect(await page.getByRole('group', { name: 'Plan Expires' }).count()).toBe(0);
    await page.context().close();
  });

  it('saves billing details, then downloads the payment’s numbered invoice as a PDF from /billing', async () => {
    const page = await newPage();
    await signUp(page);
    await page.goto(`${base}/billing`);
    const details = page.getByRole('region', { name: 'Billing Details' });
    await details.getByLabel('Billing name').fill('Grace Hopper Corp');
    await details.getByLabel('Tax id (optional)').fill('US-12-3456789');
    await details.getByRole('button', { name: 'Save Billing Details' }).click();
    await waitForAppearance(page, 'Billing details saved. Your next invoices will show them.', { announced: true });

    await subscribeToProByApi(page);
    await page.goto(`${base}/billing`);
    // Issued from the log moments after the payment: the list asks again until it is there.
    const row = page.getByRole('region', { name: 'Invoices' }).getByRole('row', { name: /MW-\d{4}-\d{6}.*Invoice.*\$29\.00/ });
    await row.waitFor();
    const number = /MW-\d{4}-\d{6}/.exec(await row.innerText())![0];
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `Download ${number} (PDF)` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The document's title (uncompressed in the PDF's info) names the invoice.
    expect(pdf.toString('latin1')).toContain(`INVOICE ${number}`);
    await page.context().close();
  });

  it('cancels a Pro subscription from billing after asking first', async () => {
    const page = await newPage();
    await signUp(page);
    await subscribeToProByApi(page);

    await page.goto(`${base}/billing`);
    const currentPlan = page.getByRole('region', { name: 'Current Plan' });
    await currentPlan.getByText('Pro', { exact: true }).waitFor();

    // Saying no changes nothing.
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel Subscription' });
    await confirm.getByText('Are you sure you want to cancel your subscription?').waitFor();
    await confirm.getByRole('button', { name: 'Keep Subscription' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await currentPlan.getByText('Active', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    await confirm.getByRole('button', { name: 'Yes, Cancel Subscription' }).click();
    await waitForAppearance(page, 'Subscription cancelled successfully', { announced: true });
    await currentPlan.getByText('Cancelling', { exact: true }).waitFor();
    await currentPlan.getByText(/Your subscription is cancelled and ends on/).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(0);
    // Cancelled, the plan no longer renews: the dashboard says when it ends.
    await page.goto(`${base}/dashboard`);
    await page.getByRole('group', { name: 'Plan Expires' }).getByText(/\d/).waitFor();
    expect(await page.getByRole('group', { name: 'Plan Renews' }).count()).toBe(0);
    await page.goto(`${base}/billing`);

    // The page links back to the profile (spec: /billing links to /profile), and the profile to billing.
    await page.getByRole('link', { name: 'Back to Profile' }).click();
    await page.waitForURL(`${base}/profile`);
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    await page.getByRole('link', { name: 'Manage Billing' }).click();
    await page.waitForURL(`${base}/billing`);
    await page.context().close();
  });
});
