import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { mailTo } from '@meshwork/testkit/mail';
import type { AdminUser, AuthResponse } from '@meshwork/contracts';
import { apiCall, ensureConsoleBuilt } from './console-kit';

/**
 * Staff-made users (issue 15) in a real browser against the whole api: the New user form with
 * its role as one choice, the server's field errors under their fields, and a user's names and
 * role changed from their page.
 */
describe('staff console: creating users and changing roles (real browser)', () => {
  let site: BrowserTest;
  let base = '';
  let staff: AuthResponse;
  let amy: AuthResponse;
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
    base = site.base;
    staff = await registerAccount(site.subject.app, 'staff', tag, true);
    amy = await registerAccount(site.subject.app, 'amy', tag);
  }, 240_000);

  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  /** A console tab signed in as staff, recording what appears (a toast lasts seconds). */
  async function signedInPage(): Promise<Page> {
    const page = await site.openPage(staff, { viewport: { width: 1600, height: 1000 } });
    await recordAppearances(page);
    return page;
  }
  const userNamed = async (username: string) => {
    const filter = encodeURIComponent(JSON.stringify({ q: username }));
    return (await apiCall<AdminUser[]>(base, staff.tokens.access, 'GET', `/admin-panel/users?filter=${filter}`)).json;
  };

  async function fillNewUser(page: Page, fields: { email: string; username: string; first?: string; last?: string }) {
    await page.getByLabel('Email').fill(fields.email);
    await page.getByLabel('Username').fill(fields.username);
    if (fields.first) await page.getByLabel('First name').fill(fields.first);
    if (fields.last) await page.getByLabel('Last name').fill(fields.last);
  }

  it('creates an auditor through the form: the toast, the list with the role, the invitation mail', async () => {
    const email = `nia-${tag}@example.com`;
    const page = await signedInPage();
    await page.goto(`${base}/admin/users`);
    await page.getByRole('link', { name: 'New user' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/users/create');
    await expect(page.getByRole('radio', { name: 'Customer' }).isChecked()).resolves.toBe(true);
    await fillNewUser(page, { email, username: `nia_${tag}`, first: 'Nia', last: 'Obi' });
    await page.getByRole('radio', { name: 'Auditor' }).check();
    await page.getByRole('button', { name: 'Save' }).click();

    await waitForAppearance(page, `User created. ${email} was emailed a link to choose a password.`, { announced: true });
    await page.waitForURL((url) => url.pathname === '/admin/users');
    const row = page.locator('tbody tr', { hasText: `nia_${tag}` });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Nia Obi\s+Auditor/);

    const [created] = await userNamed(`nia_${tag}`);
    expect(created).toMatchObject({ email, first_name: 'Nia', last_name: 'Obi', is_staff: false, is_auditor: true });
    expect((await mailTo(email)).subject).toBe('Your Meshwork account is ready');
  });

  it('shows the server’s reason under the email when it is taken, and creates nobody', async () => {
    const page = await signedInPage();
    await page.goto(`${base}/admin/users/create`);
    await fillNewUser(page, { email: amy.user.email, username: `other_${tag}` });
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForAppearance(page, 'Failed to create the user', { announced: true });
    const emailField = page.locator('.MuiFormControl-root', { has: page.getByLabel('Email') });
    await emailField.getByText('A user with this email already exists.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/users/create');
    expect(await userNamed(`other_${tag}`)).toEqual([]);
  });

  it('changes a user’s names and role from their page', async () => {
    const page = await signedInPage();
    await page.goto(`${base}/admin/users/${amy.user.id}/show`);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL((url) => url.pathname === `/admin/users/${amy.user.id}`);
    await expect(page.getByRole('radio', { name: 'Customer' }).isChecked()).resolves.toBe(true);
    await page.getByLabel('First name').fill('Amy');
    await page.getByLabel('Last name').fill('Lee');
    await page.getByRole('radio', { name: 'Staff' }).check();
    await page.getByRole('button', { name: 'Save' }).click();

    await waitForAppearance(page, 'User updated', { announced: true });
    await page.waitForURL((url) => url.pathname === `/admin/users/${amy.user.id}/show`);
    await page.locator('.MuiChip-root', { hasText: 'Staff' }).waitFor();
    const { json: changed } = await apiCall<AdminUser>(base, staff.tokens.access, 'GET', `/admin-panel/users/${amy.user.id}`);
    expect(changed).toMatchObject({ first_name: 'Amy', last_name: 'Lee', is_staff: true, is_auditor: false });
  });

  it('shows under the role that staff cannot change their own', async () => {
    const page = await signedInPage();
    await page.goto(`${base}/admin/users/${staff.user.id}`);
    await page.getByRole('radio', { name: 'Auditor' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForAppearance(page, 'Failed to update the user', { announced: true });
    const roleField = page.locator('.MuiFormControl-root', { has: page.getByRole('radio', { name: 'Auditor' }) });
    await roleField.getByText('You cannot change your own staff or auditor role.').waitFor();
    const { json: self } = await apiCall<AdminUser>(base, staff.tokens.access, 'GET', `/admin-panel/users/${staff.user.id}`);
    expect(self).toMatchObject({ is_staff: true, is_auditor: false });
  });
});
