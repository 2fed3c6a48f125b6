import { randomUUID } from 'node:crypto';
import type { Page, Request } from 'playwright-core';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { eventually } from '@meshwork/testkit/eventually';
import type { AuditPage, AuthResponse, ConsoleErrorReport } from '@meshwork/contracts';
import { apiCall, ensureConsoleBuilt } from './console-kit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A console screen that crashes (issue 15 §6), in a real browser against the whole api: the
 * dashboard is given figures it cannot render (an empty object where the api's stats belong),
 * so its own code throws; its boundary shows the spec's crash screen and reports the crash,
 * which staff then find in the audit trail under the error id the screen shows.
 */
describe('staff console: a crashed screen (real browser)', () => {
  let site: BrowserTest;
  let base = '';
  let staff: AuthResponse;

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
    base = site.base;
    staff = await registerAccount(site.subject.app, 'staff', randomUUID().slice(0, 6), true);
  }, 240_000);

  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  it('shows the crash screen with an error id, reports it to the audit trail, and Try Again shows the screen again', async () => {
    const page = await site.openPage(staff, { viewport: { width: 1400, height: 900 } });
    const stats = (url: URL) => url.pathname === '/api/v1/admin-panel/dashboard/';
    await page.route(stats, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    const reported = page.waitForRequest((request: Request) => request.url().endsWith('/api/v1/admin-panel/console-errors/'));
    await page.goto(`${base}/admin`);

    const crash = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    await crash.getByText('An error occurred in the admin panel. This has been logged for investigation.').waitFor();
    const errorId = (await crash.getByTestId('error-id').innerText()).trim();
    expect(errorId).toMatch(UUID);
    expect(await crash.getByRole('link', { name: 'Admin Panel' }).getAttribute('href')).toBe('/admin');
    expect(await crash.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe(`${base}/dashboard`);
    // The rest of the console stays: only the screen is replaced.
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();

    const report = (await reported).postDataJSON() as ConsoleErrorReport;
    expect(report).toMatchObject({ error_id: errorId, screen: 'dashboard', url: page.url() });
    expect(new URL(report.url).pathname).toMatch(/^\/admin\/?$/);
    expect(report.message).toMatch(/^TypeError: /);
    expect(report.stack).toContain('Component stack:');
    await eventually(async () => {
      const { json } = await apiCall<AuditPage>(base, staff.tokens.access, 'GET', '/admin-panel/audit/?action=ConsoleErrorReported');
      const entry = json.results.find((result) => result.resource_id === errorId);
      return entry?.resource === 'consoleerror' && entry.actor?.email === staff.user.email && entry.details.screen === 'dashboard';
    }, 'the crash in the audit trail');

    // With the api answering properly again, Try Again shows the dashboard with its figures.
    await page.unroute(stats);
    await crash.getByRole('button', { name: 'Try Again' }).click();
    await page.getByText('Total users').waitFor();
    await crash.waitFor({ state: 'detached' });
    expect(await page.getByText('Failed to load dashboard statistics').count()).toBe(0);
  });

  it('names the screen that crashed in its report, here the Audit screen with its filters', async () => {
    const page = await site.openPage(staff, { viewport: { width: 1400, height: 900 } });
    // A page of the trail without its results: the screen's own code reads entries that are not there.
    await page.route(
      (url) => url.pathname === '/api/v1/admin-panel/audit/',
      (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }),
    );
    const reported = page.waitForRequest((request: Request) => request.url().endsWith('/api/v1/admin-panel/console-errors/'));
    await page.goto(`${base}/admin/audit?action=UserRegistered`);
    await page.getByText('Something went wrong').waitFor();
    const shownId = (await page.getByTestId('error-id').innerText()).trim();
    expect((await reported).postDataJSON()).toMatchObject({
      error_id: shownId,
      screen: 'audit.list',
      url: `${base}/admin/audit?action=UserRegistered`,
    });
  });

  /** Answers 503 for the Users screen's own code while `failing()` says so; counts the tries. */
  async function breakUserList(page: Page, failing: () => boolean) {
    let tries = 0;
    await page.route(
      (url) => /\/admin\/assets\/user-list-[\w-]+\.js$/.test(url.pathname),
      async (route) => {
        tries += 1;
        if (failing()) await route.fulfill({ status: 503, body: '' });
        else await route.continue();
      },
    );
    return () => tries;
  }

  it('loads a screen whose code failed to arrive (a network that changed under the page) on a later try, without a crash', async () => {
    const page = await site.openPage(staff, { viewport: { width: 1400, height: 900 } });
    let failures = 2;
    const tries = await breakUserList(page, () => failures-- > 0);
    await page.goto(`${base}/admin/users`);
    await page.locator('tbody tr', { hasText: staff.user.email }).waitFor();
    expect(tries()).toBe(3);
    expect(await page.getByText('Something went wrong').count()).toBe(0);
  });

  it('shows the crash screen when a screen’s code cannot be had, and Try Again fetches it afresh', async () => {
    const page = await site.openPage(staff, { viewport: { width: 1400, height: 900 } });
    let down = true;
    const tries = await breakUserList(page, () => down);
    await page.goto(`${base}/admin/users`);
    const crash = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    await crash.waitFor();
    expect(tries()).toBe(3);

    down = false;
    await crash.getByRole('button', { name: 'Try Again' }).click();
    await page.locator('tbody tr', { hasText: staff.user.email }).waitFor();
    await crash.waitFor({ state: 'detached' });
    expect(tries()).toBe(4);
  });
});
