import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import type { TestApp } from '@meshwork/testkit/api/test-app';
import type { AdminDashboardStats, AdminPayment, AdminPlan, AuthResponse, SubscriptionHistory } from '@meshwork/contracts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { ensureConsoleBuilt, localDate } from './console-kit';

/** Read models catch up with commands shortly after: ask again until `read` finds what it looks for. */
async function eventually<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await read();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Plans, payments and the dashboard of the staff console in a real browser against the whole
 * api, payments taken by the built-in simulated checkout (no Stripe key).
 */
describe('staff console: plans and payments (real browser)', () => {
  let site: BrowserTest;
  let subject: TestApp;
  let base = '';
  let staff: AuthResponse;
  let customer: AuthResponse;
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
    ({ subject, base } = site);
    const register = (name: string, isStaff = false) => registerAccount(subject.app, name, tag, isStaff);
    staff = await register('staff', true);
    customer = await register('carol');
  }, 240_000);

  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  /**
   * A browser signed in as the site would leave it: tokens in localStorage, set once before the
   * first page. It records what appears: the console's toasts go after 4 seconds, the Access
   * Denied screen after 2.5, so tests wait on their records rather than on them.
   */
  async function signedInPage(session: AuthResponse): Promise<Page> {
    const page = await site.openPage(session, { viewport: { width: 1600, height: 1000 }, acceptDownloads: true });
    await recordAppearances(page);
    return page;
  }

  async function api<T>(session: AuthResponse, method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
    const response = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { Authorization: `Bearer ${session.tokens.access}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
  }

  /** The admin-panel list as the console asks for it (ra-data-simple-rest's dialect). */
  async function adminList<T>(resource: string, filter: Record<string, unknown>, sort: [string, 'ASC' | 'DESC']): Promise<T[]> {
    const query = new URLSearchParams({ filter: JSON.stringify(filter), sort: JSON.stringify(sort), range: JSON.stringify([0, 99]) });
    const { status, json } = await api<T[]>(staff, 'GET', `/admin-panel/${resource}?${query}`);
    expect(status).toBe(200);
    return json;
  }

  /**
   * The customer buys Pro through the simulated checkout, once (buying the plan one is on
   * changes nothing); resolves once the console's payments list has the payment.
   */
  let proPayment: Promise<AdminPayment> | undefined;
  const customerPaysForPro = (): Promise<AdminPayment> => (proPayment ??= buyPro());

  async function buyPro(): Promise<AdminPayment> {
    const subscribe = await api<{ payment_url?: string }>(customer, 'POST', '/subscriptions/create/', {
      plan_id: 'pro',
      payment_method: 'stripe',
    });
    expect(subscribe.status).toBeLessThan(300);
    const sessionId = subscribe.json.payment_url?.match(/^\/checkout\/simulated\/([^/?#]+)/)?.[1];
    expect(sessionId).toBeDefined();
    const complete = await api(customer, 'POST', `/subscriptions/simulated-checkout/${sessionId}/complete/`);
    expect(complete.status).toBeLessThan(300);
    return eventually(async () => {
      const payments = await adminList<AdminPayment>('payments', { q: customer.user.email, period: 'all' }, ['createdDate', 'DESC']);
      return payments.find((payment) => payment.status === 'completed');
    }, 'the customer’s payment in the admin payments list');
  }

  const planCard = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

  it('creates a plan with the new-plan form, edits its price on its card and deletes it after the exact confirmation', async () => {
    const name = `Team ${tag}`;
    const slug = `team-${tag}`;
    const features = [
      'Basic Support',
      'Community Access',
      'Local Processing',
      'Basic Analytics',
      'Priority Support',
      'Advanced Analytics',
      'Custom Model Upload',
    ];
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin/plans`);
    await planCard(page, 'Pro').waitFor();

    await page.getByRole('link', { name: 'New plan' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/plans/create');
    // The spec's defaults (section 9) are already filled in.
    await expect(page.getByLabel('Monthly price (USD)').inputValue()).resolves.toBe('0');
    await expect(page.getByLabel('Duration (days)').inputValue()).resolves.toBe('30');
    await expect(page.getByLabel('Max clients per network').inputValue()).resolves.toBe('1');
    await expect(page.getByLabel('Active', { exact: true }).isChecked()).resolves.toBe(true);

    await page.getByLabel('Name', { exact: false }).first().fill(name);
    await page.getByLabel('Slug').fill(slug);
    await page.getByLabel('Monthly price (USD)').fill('12.5');
    await page.getByLabel('Max clients per network').fill('999');
    for (const feature of features) await page.getByRole('checkbox', { name: feature, exact: true }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForAppearance(page, 'Plan created successfully', { announced: true });
    await page.waitForURL((url) => url.pathname === '/admin/plans');

    // Five features, then '+2 more'; 999 clients is unlimited.
    const card = planCard(page, name);
    await card.getByText('+2 more').waitFor();
    const summary = await card.innerText();
    expect(summary).toContain('$12.50 / month');
    expect(summary).toContain('Unlimited');
    expect(summary).toContain('Priority Support');
    expect(summary).not.toContain('Custom Model Upload');
    const created = await api<AdminPlan>(staff, 'GET', `/admin-panel/plans/${slug}`);
    expect(created.json).toMatchObject({ name, price: '12.50', max_clients: 999, duration_days: 30, is_active: true, features });

    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByLabel('Monthly price (USD)').fill('15');
    await card.getByRole('button', { name: 'Save' }).click();
    await waitForAppearance(page, 'Plan updated successfully', { announced: true });
    await card.getByText('$15.00 / month').waitFor();
    expect((await api<AdminPlan>(staff, 'GET', `/admin-panel/plans/${slug}`)).json.price).toBe('15.00');

    await card.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Are you sure you want to delete the "${name}" plan? This action cannot be undone.`, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await waitForAppearance(page, 'Plan deleted successfully', { announced: true });
    await card.waitFor({ state: 'detached' });
    expect(await adminList<AdminPlan>('plans', { q: slug }, ['tier', 'ASC'])).toEqual([]);
  });

  it('shows the server’s reason under the field when it refuses a new plan', async () => {
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin/plans/create`);
    await page.getByLabel('Name', { exact: false }).first().fill(`Odd ${tag}`);
    // The browser checks the numbers' bounds and steps itself; the slug's pattern only the server knows.
    await page.getByLabel('Slug').fill('Not A Slug!');
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForAppearance(page, 'Failed to create plan', { announced: true });
    await page.getByText('Slug may contain only lowercase letters, digits and dashes').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/plans/create');
  });

  it('refunds part of a customer’s payment through the refund dialog; the customer’s history shows it', async () => {
    const payment = await customerPaysForPro();
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin/payments`);
    await page.getByPlaceholder('Search').fill(customer.user.email);
    const row = page.locator('tbody tr', { hasText: payment.transactionId });
    await row.waitFor();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    const listed = await row.innerText();
    expect(listed).toContain(customer.user.email);
    expect(listed).toContain('Completed');
    expect(listed).toContain(`$${payment.amount.toFixed(2)}`);

    await row.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog');
    const processRefund = dialog.getByRole('button', { name: 'Process Refund' });
    await expect(processRefund.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Refund amount (USD)').fill('5');
    await expect(processRefund.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Reason').fill('Service outage on the 3rd');
    await expect(processRefund.isDisabled()).resolves.toBe(false);
    await processRefund.click();
    await waitForAppearance(page, 'Refund processed successfully', { announced: true });
    await dialog.waitFor({ state: 'detached' });

    // A partial refund leaves the payment completed, with the refunded amount beside it.
    await row.getByText('$5.00').waitFor();
    expect(await row.innerText()).toContain('Completed');
    const refunded = await api<AdminPayment>(staff, 'GET', `/admin-panel/payments/${payment.id}`);
    expect(refunded.json).toMatchObject({ status: 'completed', refundAmount: 5, refundReason: 'Service outage on the 3rd' });

    const history = await eventually(async () => {
      const { json } = await api<SubscriptionHistory>(customer, 'GET', '/subscriptions/list/');
      return json.payments.find((entry) => entry.refunded_amount === '5.00');
    }, 'the refund in the customer’s history');
    expect(history.amount).toBe(payment.amount.toFixed(2));

    // The payment's page lists its invoice and the refund's credit note (issued from the log), each a PDF.
    await page.goto(`${base}/admin/payments/${payment.id}/show`);
    await page.getByRole('button', { name: /^Download CN-\d{4}-\d{6}$/ }).waitFor();
    const invoiceButton = page.getByRole('button', { name: /^Download MW-\d{4}-\d{6}$/ });
    const number = /MW-\d{4}-\d{6}/.exec(await invoiceButton.innerText())![0]; // MUI shows button labels in capitals
    const [download] = await Promise.all([page.waitForEvent('download'), invoiceButton.click()]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    expect(fs.readFileSync((await download.path())!).toString('latin1')).toContain(`INVOICE ${number}`);
  });

  it('exports the filtered payments as payments-{date}.csv with a header row', async () => {
    const payment = await customerPaysForPro();
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin/payments`);
    await page.getByPlaceholder('Search').fill(customer.user.email);
    await page.locator('tbody tr', { hasText: payment.transactionId }).waitFor();
    await page.getByRole('combobox', { name: 'Date' }).click();
    await page.getByRole('option', { name: 'Today' }).click();
    await page.locator('tbody tr', { hasText: payment.transactionId }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe(`payments-${localDate()}.csv`);
    const lines = fs.readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(lines[0]).toBe(
      'ID,User email,User name,Plan,Amount,Currency,Status,Payment method,Transaction ID,Created,Processed,Refunded amount,Refund reason',
    );
    expect(lines.slice(1).every((line) => line.includes(customer.user.email))).toBe(true);
    expect(lines.some((line) => line.includes(payment.transactionId))).toBe(true);
    await waitForAppearance(page, 'Payments exported successfully', { announced: true });
  });

  it('shows the dashboard’s figures from the api', async () => {
    const { json: stats } = await api<AdminDashboardStats>(staff, 'GET', '/admin-panel/dashboard/');
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin`);
    const totalUsers = page.getByText('Total users').locator('..');
    await totalUsers.getByText(stats.totalUsers.toLocaleString('en-US'), { exact: true }).waitFor();
    await page.getByText('Total revenue').waitFor();
    expect(await page.getByText('Failed to load dashboard statistics').count()).toBe(0);
  });

  it('turns a customer away from plans and payments without calling the admin api', async () => {
    for (const screen of ['plans', 'payments']) {
      const page = await signedInPage(customer);
      const adminCalls: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/v1/admin-panel/')) adminCalls.push(request.url());
      });
      await page.goto(`${base}/admin/${screen}`);
      await waitForAppearance(page, 'Access Denied', { announced: true });
      await waitForAppearance(page, 'Access denied. Admin privileges required.', { announced: true });
      await page.waitForURL((url) => url.pathname === '/dashboard');
      expect(adminCalls).toEqual([]);
    }
  });
});
