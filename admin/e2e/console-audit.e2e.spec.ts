import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { eventually } from '@meshwork/testkit/eventually';
import type { AdminPlan, AuditPage, AuthResponse } from '@meshwork/contracts';
import { apiCall, auditCaughtUp, ensureConsoleBuilt } from './console-kit';

/**
 * Issue 15 in a real browser against the whole api: the Audit screen (filters in the address,
 * Load more by cursor, the server's CSV export, a correlation id as a filter) and the History
 * tabs that show one resource's entries.
 */
describe('staff console: the audit trail (real browser)', () => {
  let site: BrowserTest;
  let base = '';
  let staff: AuthResponse;
  let customer: AuthResponse;
  let deactivation = '';
  const tag = randomUUID().slice(0, 6);
  const asStaff = <T>(method: string, path: string, body?: unknown) => apiCall<T>(base, staff.tokens.access, method, path, body);

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
    base = site.base;
    staff = await registerAccount(site.subject.app, 'staff', tag, true);
    customer = await registerAccount(site.subject.app, 'kim', tag);
    // Each account adds two user events: with these, the user entries fill more than the screen's first page of 50.
    for (let i = 0; i < 30; i++) await registerAccount(site.subject.app, `filler${i}`, tag);
    const deactivated = await asStaff('PUT', `/admin-panel/users/${customer.user.id}`, { is_active: false });
    expect(deactivated.status).toBe(200);
    deactivation = deactivated.headers.get('x-correlation-id')!;
    expect(deactivation).toBeTruthy();
    await auditCaughtUp(site.subject.db.pool);
  }, 240_000);

  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  /** A console tab signed in as staff, recording what appears (a toast lasts seconds). */
  async function signedInPage(): Promise<Page> {
    const page = await site.openPage(staff, { viewport: { width: 1600, height: 1000 } });
    await recordAppearances(page);
    return page;
  }
  const entries = (page: Page) => page.locator('tbody tr[data-position]');
  const positions = async (page: Page) => (await entries(page).evaluateAll((rows) => rows.map((row) => row.dataset.position))).map(Number);
  const search = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

  it('shows a staff action, narrows it with the filters (kept in the address) and follows its correlation id', async () => {
    const page = await signedInPage();
    await page.goto(`${base}/admin/audit`);
    const row = entries(page).filter({ hasText: 'UserDeactivated' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(new RegExp(`${customer.user.id}[\\s\\S]*${staff.user.email}\\s+Yes`));

    await page.getByLabel('Action (event type)').fill('UserDeactivated');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((url) => url.searchParams.get('action') === 'UserDeactivated');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-position]').length === 1);
    await expect(entries(page).innerText()).resolves.toContain(customer.user.id);

    // The customer deactivated nobody: both filters together match nothing.
    await page.getByLabel('Actor (email or user ID)').fill(customer.user.email);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No entries match these filters.').waitFor();
    expect(search(page)).toEqual({ action: 'UserDeactivated', actor: customer.user.email });

    // A shared link shows the same: the staff member's deactivations, opened afresh.
    await page.goto(`${base}/admin/audit?action=UserDeactivated&actor=${encodeURIComponent(staff.user.email)}`);
    await expect(page.getByLabel('Actor (email or user ID)').inputValue()).resolves.toBe(staff.user.email);
    await entries(page).first().waitFor();
    expect(await entries(page).count()).toBe(1);

    await page.getByRole('link', { name: `Every entry of request ${deactivation}` }).click();
    await page.waitForURL((url) => url.searchParams.get('correlation_id') === deactivation);
    expect(search(page)).toEqual({ correlation_id: deactivation });
    // The form starts again from the address: the clicked id fills its Correlation ID.
    await eventually(async () => (await page.getByLabel('Correlation ID').inputValue()) === deactivation, 'the id in the form');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-position]').length === 1);
    await expect(entries(page).innerText()).resolves.toContain('UserDeactivated');

    const { json: request } = await asStaff<AuditPage>('GET', `/admin-panel/audit/?correlation_id=${deactivation}`);
    const [entry] = request.results;
    await entries(page).getByRole('button', { name: 'Show details' }).click();
    await page.getByText(`Event ID: ${entry!.id}`).waitFor();
    expect(await page.locator('tbody pre').innerText()).toBe(JSON.stringify(entry!.details, null, 2));
  });

  it('loads the next page by cursor with Load more, without gaps or repeats', async () => {
    const { json: all } = await asStaff<AuditPage>('GET', '/admin-panel/audit/?resource_type=user&limit=200');
    expect(all.results.length).toBeGreaterThan(50);
    expect(all.results.length).toBeLessThanOrEqual(100);

    const page = await signedInPage();
    await page.goto(`${base}/admin/audit?resource_type=user`);
    await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-position]').length === 50);
    expect(await positions(page)).toEqual(all.results.slice(0, 50).map((entry) => entry.position));

    await page.getByRole('button', { name: 'Load more' }).click();
    await page.waitForFunction((count) => document.querySelectorAll('tbody tr[data-position]').length === count, all.results.length);
    expect(await positions(page)).toEqual(all.results.map((entry) => entry.position));
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
  });

  it('exports what the filters match as the server’s CSV', async () => {
    const page = await signedInPage();
    await page.goto(`${base}/admin/audit?action=UserDeactivated`);
    await entries(page).first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`audit-${new Date().toISOString().slice(0, 10)}.csv`);
    const lines = fs.readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(lines[0]).toBe('Position,Time,Action,Resource,Resource ID,Actor,Actor ID,Staff,IP Address,User Agent,Correlation ID,Details');
    expect(lines.slice(1)).toEqual([
      expect.stringContaining(`,UserDeactivated,user,${customer.user.id},${staff.user.email},${staff.user.id},Yes,`),
      '',
    ]);
    expect(lines[1]).toContain(`,${deactivation},`);
    await waitForAppearance(page, 'Audit trail exported successfully', { announced: true });
  });

  it('lists a user’s events, newest first, in their History tab, and opens them in Audit', async () => {
    const { json: history } = await asStaff<AuditPage>('GET', `/admin-panel/audit/?resource_type=user&resource_id=${customer.user.id}`);
    expect(history.results[0]!.action).toBe('UserDeactivated');

    const page = await signedInPage();
    await page.goto(`${base}/admin/users/${customer.user.id}/show`);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/show/history'));
    await page.waitForFunction((count) => document.querySelectorAll('tbody tr[data-position]').length === count, history.results.length);
    const rows = await entries(page).allInnerTexts();
    expect(rows.map((text) => text.split('\t')[1]?.trim())).toEqual(history.results.map((entry) => entry.action));
    expect(rows[0]).toContain(staff.user.email);

    await page.getByRole('link', { name: 'Open in Audit' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/audit');
    expect(search(page)).toEqual({ resource_type: 'user', resource_id: customer.user.id });
    await page.waitForFunction((count) => document.querySelectorAll('tbody tr[data-position]').length === count, history.results.length);
  });

  it('shows a plan’s History with the staff member named by email', async () => {
    const name = `Audited ${tag}`;
    const { json: plan } = await asStaff<AdminPlan>('POST', '/admin-panel/plans', { name, price: 9, tier: 4 });
    expect((await asStaff('PUT', `/admin-panel/plans/${plan.id}`, { price: 11 })).status).toBe(200);
    await auditCaughtUp(site.subject.db.pool);
    const { json: history } = await asStaff<AuditPage>('GET', `/admin-panel/audit/?resource_type=plan&resource_id=${plan.id}`);
    expect(history.results.length).toBeGreaterThanOrEqual(2);

    const page = await signedInPage();
    await page.goto(`${base}/admin/plans`);
    await page.getByRole('article', { name, exact: true }).getByRole('link', { name: 'History' }).click();
    await page.waitForURL((url) => url.pathname === `/admin/plans/${plan.id}/show/history`);
    await page.waitForFunction((count) => document.querySelectorAll('tbody tr[data-position]').length === count, history.results.length);
    const rows = await entries(page).allInnerTexts();
    expect(rows.map((text) => text.split('\t')[1]?.trim())).toEqual(history.results.map((entry) => entry.action));
    for (const text of rows) expect(text).toContain(staff.user.email);
  });
});
