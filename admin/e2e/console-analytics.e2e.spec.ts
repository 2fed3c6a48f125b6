import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { ANALYTICS_PROJECTION } from '../../api/src/analytics/projections/analytics.entities';
import { registerAccount, registerAuditor, subscribeToPro } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { caughtUp } from '@meshwork/testkit/api/test-app';
import type { AdminPlan, AnalyticsReport, AuthResponse } from '@meshwork/contracts';
import { apiCall, ensureConsoleBuilt, localDate } from './console-kit';

/**
 * The Analytics screen in a real browser against the whole api: figures and charts from the
 * report, the range kept in the address, the CSV export made in the browser, the load failure
 * with Try Again, and an auditor reading it. Its own database, so the figures are this file's.
 */
describe('staff console: analytics (real browser)', () => {
  let site: BrowserTest;
  let base = '';
  let staff: AuthResponse;
  let auditor: AuthResponse;
  const tag = randomUUID().slice(0, 6);
  const formulaPlan = `=Team ${tag}`;
  const report = async (range: string) => {
    const { status, json } = await apiCall<AnalyticsReport>(base, staff.tokens.access, 'GET', `/admin-panel/analytics/?dateRange=${range}`);
    expect(status).toBe(200);
    return json;
  };

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
    base = site.base;
    staff = await registerAccount(site.subject.app, 'staff', tag, true);
    auditor = await registerAuditor(site.subject.app, 'ida', tag);
    const customers = [];
    for (const name of ['ann', 'ben', 'cat']) customers.push(await registerAccount(site.subject.app, name, tag));
    await subscribeToPro(base, customers[0]!.tokens.access);
    // A paid plan nobody is on yet, named as a spreadsheet formula: the export must not run it.
    const plan = await apiCall<AdminPlan>(base, staff.tokens.access, 'POST', '/admin-panel/plans', {
      name: formulaPlan,
      slug: `formula-${tag}`,
      price: 9,
      tier: 4,
    });
    expect(plan.status).toBe(201);
    await caughtUp(site.subject, ANALYTICS_PROJECTION);
  }, 240_000);

  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  /** A console tab signed in as `session`, recording what appears (a toast lasts seconds). */
  async function signedInPage(session: AuthResponse): Promise<Page> {
    const page = await site.openPage(session, { viewport: { width: 1600, height: 1000 }, acceptDownloads: true });
    await recordAppearances(page);
    return page;
  }
  const figure = (page: Page, name: string) => page.getByRole('region', { name, exact: true }).locator('[data-figure]');
  const chart = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
  const analyticsCalls = (page: Page) => {
    const ranges: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/admin-panel/analytics/') ranges.push(url.searchParams.get('dateRange') ?? '');
    });
    return ranges;
  };

  it('opens from the menu with the last 30 days: the api’s figures, the growth and revenue lines, the plans’ bars', async () => {
    const expected = await report('30d');
    expect(expected.summary).toMatchObject({ totalUsers: 5, newUsers: 5, activeSubscriptions: 1 });
    expect(expected.summary.totalRevenue).toBeGreaterThan(0);

    const page = await signedInPage(staff);
    const ranges = analyticsCalls(page);
    await page.goto(`${base}/admin`);
    await page.getByRole('menuitem', { name: 'Analytics' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/analytics');

    await expect(figure(page, 'Total users').innerText()).resolves.toBe(String(expected.summary.totalUsers));
    await expect(figure(page, 'New users').innerText()).resolves.toBe(String(expected.summary.newUsers));
    await expect(figure(page, 'Active subscriptions').innerText()).resolves.toBe('1');
    const revenue = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(expected.summary.totalRevenue);
    await expect(figure(page, 'Total revenue').innerText()).resolves.toBe(revenue);
    await expect(figure(page, 'Top model').innerText()).resolves.toBe('None');
    expect(ranges).toEqual(['30d']);
    await expect(page.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).resolves.toBe('true');

    for (const name of ['User growth', 'Revenue']) {
      const curve = chart(page, name).locator('.recharts-surface .recharts-line-curve').first();
      await curve.waitFor();
      expect(await curve.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
    }
    await chart(page, 'Subscriptions by plan').locator('.recharts-surface .recharts-bar-rectangle').first().waitFor();
    // No device reported running a model: the chart says so rather than drawing bare axes.
    await chart(page, 'Model usage').getByText('No data for this period').waitFor();
    expect(await chart(page, 'Model usage').locator('.recharts-surface').count()).toBe(0);
  });

  it('switches to the last 7 days, keeps the range in the address and a reload keeps it too', async () => {
    const page = await signedInPage(staff);
    const ranges = analyticsCalls(page);
    await page.goto(`${base}/admin/analytics`);
    await figure(page, 'Total users').waitFor();

    const asked = page.waitForRequest((request) => request.url().includes('/admin-panel/analytics/?dateRange=7d'));
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await asked;
    await page.waitForURL((url) => url.searchParams.get('range') === '7d');
    const week = await report('7d');
    await page.getByText(`${formatDay(week.from)} to ${formatDay(week.to)}`).waitFor();
    await expect(figure(page, 'Total users').innerText()).resolves.toBe(String(week.summary.totalUsers));

    await page.reload();
    await page.getByText(`${formatDay(week.from)} to ${formatDay(week.to)}`).waitFor();
    await expect(page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).resolves.toBe('true');
    expect(ranges).toEqual(['30d', '7d', '7d']);
  });

  it('exports every series as CSV, with formula-like text made harmless', async () => {
    const expected = await report('90d');
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin/analytics?range=90d`);
    await figure(page, 'Total users').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    await waitForAppearance(page, 'Analytics exported successfully', { announced: true });
    expect(download.suggestedFilename()).toBe(`analytics-90d-${localDate()}.csv`);
    const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
    const { summary } = expected;
    expect(csv.startsWith(`Period\r\nRange,From,To\r\n90d,${expected.from},${expected.to}\r\n\r\nSummary\r\n`)).toBe(true);
    expect(csv).toContain(
      'Total users,New users,Total revenue (USD),Revenue growth (%),Active subscriptions,Subscription growth (%),Top model\r\n' +
        `${summary.totalUsers},${summary.newUsers},${summary.totalRevenue},${summary.revenueGrowth},1,${summary.subscriptionGrowth},\r\n`,
    );
    const today = expected.userGrowth.at(-1)!;
    expect(csv).toContain(`User growth\r\nDate,Total users,New users\r\n${expected.userGrowth[0]!.date},`);
    expect(csv).toContain(`\r\n${today.date},${today.totalUsers},${today.newUsers}\r\n`);
    expect(csv.split('\r\n').filter((line) => /^\d{4}-\d{2}-\d{2},/.test(line))).toHaveLength(2 * 90);
    expect(csv).toContain('Subscriptions by plan\r\nPlan,Active subscriptions,Conversion rate (%),Churn rate (%)\r\nPro,1,');
    // Quoted, and a leading ' so a spreadsheet shows the text instead of running it.
    expect(csv).toContain(`\r\n"'${formulaPlan}",0,0,0\r\n`);
    expect(csv.endsWith('Model usage\r\nModel,Requests,Tokens,Unique users')).toBe(true);
  });

  it('shows the load failure with Try Again when the api fails, and the report once it answers', async () => {
    const page = await signedInPage(staff);
    let failing = true;
    await page.route('**/api/v1/admin-panel/analytics/**', (route) =>
      failing ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"boom"}' }) : route.continue(),
    );
    await page.goto(`${base}/admin/analytics`);
    // After the query's own retries, in the screen and as a toast.
    const failure = page.getByRole('alert').filter({ hasText: 'Failed to load analytics data' });
    await failure.first().waitFor({ timeout: 30_000 });
    expect(await page.locator('.recharts-surface').count()).toBe(0);
    await expect(page.getByRole('button', { name: 'Export CSV' }).isDisabled()).resolves.toBe(true);

    failing = false;
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(figure(page, 'Total users').innerText()).resolves.toBe(String((await report('30d')).summary.totalUsers));
    await chart(page, 'User growth').locator('.recharts-line-curve').first().waitFor();
  });

  it('lets an auditor read the screen and export it', async () => {
    const page = await signedInPage(auditor);
    await page.goto(`${base}/admin/analytics?range=1y`);
    await expect(figure(page, 'Total users').innerText()).resolves.toBe(String((await report('1y')).summary.totalUsers));
    await chart(page, 'User growth').locator('.recharts-line-curve').first().waitFor();
    await expect(page.getByRole('button', { name: 'Export CSV' }).isEnabled()).resolves.toBe(true);
    expect(await page.getByText('Access Denied', { exact: true }).count()).toBe(0);
  });
});

/** A UTC day as the screen's period line shows it in English ("Jan 31, 2025"). */
function formatDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
}
