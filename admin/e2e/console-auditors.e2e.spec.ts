import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { Page, Response } from 'playwright-core';
import { ChangeUserRoles } from '../../api/src/identity';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import type { AdminUser, AuthResponse } from '@meshwork/contracts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { apiCall, auditCaughtUp, ensureConsoleBuilt } from './console-kit';

/**
 * Auditors (issue 15) in a real browser against the whole api: they read every screen and see
 * no control that would change anything; a console write the server refuses them leaves them
 * where they are, while a user whose console rights are gone is still turned away.
 */
describe('staff console: auditors (real browser)', () => {
  let site: BrowserTest;
  let base = '';
  let staff: AuthResponse;
  let auditor: AuthResponse;
  let bob: AuthResponse;
  const tag = randomUUID().slice(0, 6);

  const setRoles = (user: AuthResponse, roles: { isStaff: boolean; isAuditor: boolean }) =>
    site.subject.app.get(CommandBus).execute(new ChangeUserRoles(user.user.id, roles, new Date()));

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
    base = site.base;
    staff = await registerAccount(site.subject.app, 'staff', tag, true);
    auditor = await registerAccount(site.subject.app, 'ida', tag);
    await setRoles(auditor, { isStaff: false, isAuditor: true });
    bob = await registerAccount(site.subject.app, 'bob', tag);
    await auditCaughtUp(site.subject.db.pool);
  }, 240_000);

  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  /** A console tab signed in as `session`, recording what appears (toasts and the Access Denied screen last seconds). */
  async function signedInPage(session: AuthResponse): Promise<Page> {
    const page = await site.openPage(session, { viewport: { width: 1600, height: 1000 } });
    await recordAppearances(page);
    return page;
  }
  const row = (page: Page, text: string) => page.locator('tbody tr', { hasText: text });

  /** The users list's write controls: New user, Bulk actions, a row's Deactivate and Delete, the selection boxes. */
  async function usersWriteControls(page: Page): Promise<number[]> {
    await row(page, `bob_${tag}`).waitFor();
    return Promise.all([
      page.getByRole('link', { name: 'New user' }).count(),
      page.getByRole('button', { name: 'Bulk actions' }).count(),
      row(page, `bob_${tag}`).getByRole('button', { name: 'Deactivate' }).count(),
      row(page, `bob_${tag}`).getByRole('button', { name: 'Delete' }).count(),
      page.locator('tbody input[type=checkbox]').count(),
    ]);
  }

  it('shows staff the users list’s write controls, and an auditor the same list without them', async () => {
    const staffPage = await signedInPage(staff);
    await staffPage.goto(`${base}/admin/users`);
    expect((await usersWriteControls(staffPage)).every((count) => count > 0)).toBe(true);

    const page = await signedInPage(auditor);
    await page.goto(`${base}/admin/users`);
    expect(await usersWriteControls(page)).toEqual([0, 0, 0, 0, 0]);
    await expect(row(page, `ida_${tag}`).innerText()).resolves.toContain('Auditor');

    await row(page, `bob_${tag}`).click();
    await page.waitForURL((url) => url.pathname === `/admin/users/${bob.user.id}/show`);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.locator('tbody tr[data-position]').first().waitFor();
    for (const name of ['Edit', 'Deactivate', 'Delete']) expect(await page.getByRole('button', { name }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);

    await page.goto(`${base}/admin/users/create`);
    await page.getByText('Auditors have read-only access: this change needs a staff member.').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
  });

  it('lets an auditor read the audit trail, and the plans without New plan, Edit or Delete', async () => {
    const page = await signedInPage(auditor);
    await page.goto(`${base}/admin/audit`);
    await page.locator('tbody tr[data-position]', { hasText: bob.user.id }).first().waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();

    await page.goto(`${base}/admin/plans`);
    const pro = page.getByRole('article', { name: 'Pro', exact: true });
    await pro.getByRole('link', { name: 'History' }).waitFor();
    expect(await page.getByRole('link', { name: 'New plan' }).count()).toBe(0);
    for (const name of ['Edit', 'Delete']) expect(await pro.getByRole('button', { name }).count()).toBe(0);
    await expect(pro.locator('input[type=checkbox]').isDisabled()).resolves.toBe(true);
  });

  it('keeps a staff member made an auditor mid-session on the screen when a write is refused', async () => {
    const demoted = await registerAccount(site.subject.app, 'dee', tag, true);
    const page = await signedInPage(demoted);
    await page.goto(`${base}/admin/users`);
    const deactivate = row(page, `bob_${tag}`).getByRole('button', { name: 'Deactivate' });
    await deactivate.waitFor();

    await setRoles(demoted, { isStaff: false, isAuditor: true });
    const path = (response: Response) => new URL(response.url()).pathname;
    const refused = page.waitForResponse((r) => path(r) === `/api/v1/admin-panel/users/${bob.user.id}` && r.request().method() !== 'GET');
    // The refusal makes the console read the profile afresh (authProvider.checkError) to decide whether to stay.
    const profileRead = page.waitForResponse(
      async (r) =>
        path(r) === '/api/v1/profile/' &&
        r.ok() &&
        (await r.json().then(
          (json: { is_auditor?: boolean }) => json.is_auditor === true,
          () => false,
        )),
    );
    await deactivate.click();
    expect((await refused).status()).toBe(403);
    expect(await (await profileRead).json()).toMatchObject({ is_staff: false, is_auditor: true });
    // react-admin hands the write its failure, and the screen raises this toast, only once checkError
    // has let the user stay (a check that ends the session resolves the write instead, after redirecting).
    await waitForAppearance(page, 'Failed to deactivate the user', { announced: true });
    expect(new URL(page.url()).pathname).toBe('/admin/users');
    await row(page, `bob_${tag}`).waitFor();
    expect(await page.getByText('Access Denied', { exact: true }).count()).toBe(0);
    const { json: stillActive } = await apiCall<AdminUser>(base, staff.tokens.access, 'GET', `/admin-panel/users/${bob.user.id}`);
    expect(stillActive.is_active).toBe(true);
  });

  it('still turns away a staff member whose console rights are withdrawn mid-session', async () => {
    const dismissed = await registerAccount(site.subject.app, 'eve', tag, true);
    const page = await signedInPage(dismissed);
    await page.goto(`${base}/admin/users`);
    const deactivate = row(page, `bob_${tag}`).getByRole('button', { name: 'Deactivate' });
    await deactivate.waitFor();

    await setRoles(dismissed, { isStaff: false, isAuditor: false });
    await deactivate.click();
    // The Access Denied screen stays 2.5 s before /dashboard replaces it: its record is waited on, not the screen.
    await waitForAppearance(page, 'Access Denied', { announced: true });
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });
});
