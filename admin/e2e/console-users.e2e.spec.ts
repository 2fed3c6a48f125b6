import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import type { TestApp } from '@meshwork/testkit/api/test-app';
import type { AuthResponse } from '@meshwork/contracts';
import { ensureConsoleBuilt } from './console-kit';

/**
 * The staff console in a real browser against the whole api: the session is the customer
 * site's (tokens in localStorage), staff manage users, everyone else is turned away.
 */
describe('staff console: users (real browser)', () => {
  let site: BrowserTest;
  let subject: TestApp;
  let base = '';
  let staff: AuthResponse;
  let customer: AuthResponse;
  let zoe: AuthResponse;
  let amy: AuthResponse;
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    ({ subject, base } = site);
    const register = (name: string, isStaff = false) => registerAccount(subject.app, name, tag, isStaff);
    staff = await register('staff', true);
    customer = await register('bob');
    amy = await register('amy');
    zoe = await register('zoe');
    const named = await fetch(`${base}/api/v1/profile/`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${zoe.tokens.access}` },
      body: JSON.stringify({ first_name: 'Zoë', last_name: 'Quinn' }),
    });
    expect(named.status).toBe(200);
  }, 240_000);

  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  /**
   * A browser signed in as the site would leave it: tokens in localStorage, set once before the
   * first page. It records what appears: a toast, or the Access Denied screen, lasts seconds.
   */
  async function signedInPage(session: AuthResponse | null): Promise<Page> {
    const page = await site.openPage(session, { viewport: { width: 1400, height: 900 } });
    await recordAppearances(page);
    return page;
  }

  const row = (page: Page, username: string) => page.locator('tbody tr', { hasText: username });

  async function adminUser(id: string): Promise<{ is_active: boolean }> {
    const response = await fetch(`${base}/api/v1/admin-panel/users/${id}`, { headers: { Authorization: `Bearer ${staff.tokens.access}` } });
    return (await response.json()) as { is_active: boolean };
  }

  it('sends a signed-out visitor to the site’s sign-in page, remembering the console page', async () => {
    const page = await signedInPage(null);
    await page.goto(`${base}/admin/users`);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/admin/users');
  });

  it('lists users for staff, searches by full name and deactivates one', async () => {
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin/users`);
    for (const name of ['amy', 'bob', 'zoe', 'staff']) await row(page, `${name}_${tag}`).waitFor();
    await expect(row(page, `zoe_${tag}`).innerText()).resolves.toContain('Zoë Quinn');

    await page.getByPlaceholder('Search').fill('QUINN');
    await page.waitForFunction((tagged) => !document.body.innerText.includes(tagged), `amy_${tag}`);
    expect(await page.locator('tbody tr').count()).toBe(1);

    await row(page, `zoe_${tag}`).getByRole('button', { name: 'Deactivate' }).click();
    await waitForAppearance(page, 'User deactivated', { announced: true });
    await row(page, `zoe_${tag}`).getByText('Inactive', { exact: true }).waitFor();
    expect((await adminUser(zoe.user.id)).is_active).toBe(false);
  });

  it('fits a 1280 px window: no sideways scroll, every column and the row and list actions in view', async () => {
    const page = await site.openPage(staff, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/admin/users`);
    await row(page, `zoe_${tag}`).waitFor();
    const width = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      window: document.documentElement.clientWidth,
    }));
    expect(width.scroll).toBeLessThanOrEqual(width.window);
    for (const control of [
      page.getByRole('columnheader', { name: 'Actions' }),
      row(page, `zoe_${tag}`).getByRole('button', { name: 'Delete' }),
      page.getByRole('button', { name: 'Bulk actions' }),
    ]) {
      const box = (await control.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width.window);
    }
  });

  it('shows the select-a-user error for a bulk action with nothing selected, in English and in Persian', async () => {
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin/users`);
    await row(page, `amy_${tag}`).waitFor();
    await page.getByRole('button', { name: 'Bulk actions' }).click();
    await page.getByRole('menuitem', { name: 'Deactivate selected' }).click();
    await waitForAppearance(page, 'Please select at least one user first.', { announced: true });
    expect((await adminUser(amy.user.id)).is_active).toBe(true);

    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('menuitem', { name: 'فارسی' }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fa');
    await page.getByRole('button', { name: 'عملیات گروهی' }).click();
    await page.getByRole('menuitem', { name: 'فعال‌سازی انتخاب‌شده‌ها', exact: true }).click();
    await waitForAppearance(page, 'لطفاً ابتدا حداقل یک کاربر را انتخاب کنید.', { announced: true });
  });

  it('bulk-deletes the selected users only after confirmation', async () => {
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin/users`);
    await row(page, `amy_${tag}`).locator('input[type=checkbox]').check();
    await page.getByRole('button', { name: 'Delete selected' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete 1 user?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(
      (await fetch(`${base}/api/v1/admin-panel/users/${amy.user.id}`, { headers: { Authorization: `Bearer ${staff.tokens.access}` } }))
        .status,
    ).toBe(200);

    await page.getByRole('button', { name: 'Delete selected' }).first().click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await waitForAppearance(page, '1 user deleted', { announced: true });
    await row(page, `amy_${tag}`).waitFor({ state: 'detached' });
    expect(
      (await fetch(`${base}/api/v1/admin-panel/users/${amy.user.id}`, { headers: { Authorization: `Bearer ${staff.tokens.access}` } }))
        .status,
    ).toBe(404);
  });

  it('refuses a signed-in customer: the access-denied message, then the site dashboard, still signed in', async () => {
    const page = await signedInPage(customer);
    const adminCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/admin-panel/')) adminCalls.push(request.url());
    });
    await page.goto(`${base}/admin/users`);
    // The toast and the Access Denied screen stay 2.5 s before /dashboard replaces them: their record is waited on.
    await waitForAppearance(page, 'Access denied. Admin privileges required.', { announced: true });
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(adminCalls).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBe(customer.tokens.refresh);
  });
});
