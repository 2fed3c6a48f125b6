import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { registerAccount, registerAuditor } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import type { AdminPlan, AuditEntry, AuditPage, AuthResponse } from '@meshwork/contracts';
import { apiCall, auditCaughtUp, ensureConsoleBuilt } from './console-kit';

/**
 * Replay in a real browser against the whole api (issue 15 §2): a History entry opens the
 * resource as of that entry, folded by the api from its stream, and a second point shows what
 * changed between the two, before and after in time order whichever was picked first.
 */
describe('staff console: a resource as of a History entry (real browser)', () => {
  let site: BrowserTest;
  let base = '';
  let staff: AuthResponse;
  let auditor: AuthResponse;
  let customer: AuthResponse;
  let plan: AdminPlan;
  const tag = randomUUID().slice(0, 6);
  const asStaff = <T>(method: string, path: string, body?: unknown) => apiCall<T>(base, staff.tokens.access, method, path, body);

  /** A resource's audit entries, oldest first. */
  const historyOf = async (type: string, id: string) =>
    (await asStaff<AuditPage>('GET', `/admin-panel/audit/?resource_type=${type}&resource_id=${id}`)).json.results.slice().reverse();

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
    base = site.base;
    staff = await registerAccount(site.subject.app, 'staff', tag, true);
    auditor = await registerAuditor(site.subject.app, 'audra', tag);
    customer = await registerAccount(site.subject.app, 'kim', tag);
    expect((await asStaff('PUT', `/admin-panel/users/${customer.user.id}`, { is_active: false })).status).toBe(200);
    const created = await asStaff<AdminPlan>('POST', '/admin-panel/plans', { name: `Replayed ${tag}`, price: 10, tier: 4 });
    expect(created.status).toBe(201);
    plan = created.json;
    expect((await asStaff('PUT', `/admin-panel/plans/${plan.id}`, { price: 15 })).status).toBe(200);
    await auditCaughtUp(site.subject.db.pool);
  }, 240_000);

  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  const signedInPage = (session: AuthResponse) => site.openPage(session, { viewport: { width: 1600, height: 1000 } });

  /** Opens a History page and waits for its `count` entries. */
  async function openHistory(session: AuthResponse, path: string, count: number): Promise<Page> {
    const page = await signedInPage(session);
    await page.goto(`${base}/admin/${path}/show/history`);
    await page.waitForFunction((rows) => document.querySelectorAll('tbody tr[data-position]').length === rows, count);
    return page;
  }

  /** Chooses "View as of" on the entry's row: the dialog it opens. */
  async function viewAsOf(page: Page, entry: AuditEntry): Promise<Locator> {
    await page.locator(`tbody tr[data-position="${entry.position}"]`).getByRole('button', { name: 'View as of' }).click();
    return page.getByRole('dialog');
  }

  /** The cells of the row of `path` in the dialog's table whose name starts with `table`. */
  async function rowOf(dialog: Locator, table: string, path: string): Promise<string[]> {
    const rows = dialog.getByRole('table', { name: new RegExp(`^${table}`) }).getByRole('row');
    const row = rows.filter({ has: dialog.page().getByRole('cell', { name: path, exact: true }) });
    await row.waitFor();
    return (await row.locator('td').allInnerTexts()).map((text) => text.trim());
  }

  it('shows a plan as of its creation with its first price, and the price change in time order either way round', async () => {
    const history = await historyOf('plan', plan.id);
    const [creation, change] = [history[0]!, history.at(-1)!];
    expect(history.length).toBeGreaterThanOrEqual(2);

    const page = await openHistory(staff, `plans/${plan.id}`, history.length);
    const dialog = await viewAsOf(page, creation);
    await dialog.getByText(`Position ${creation.position} · version 1 ·`).waitFor();
    expect(await rowOf(dialog, 'State as of', 'terms.priceCents')).toEqual(['terms.priceCents', '1000']);

    // Compared with a later entry: the later one is as_of for the api, so before is the creation's price.
    await dialog.getByLabel('Compare with…').selectOption(String(change.position));
    const changes = dialog.getByRole('table', { name: /^Changes from/ });
    await changes.waitFor();
    expect(await changes.getAttribute('aria-label')).toMatch(
      new RegExp(`^Changes from ${creation.action} \\(.*\\) to ${change.action} \\(`),
    );
    expect(await rowOf(dialog, 'Changes from', 'terms.priceCents')).toEqual(['terms.priceCents', '1000', '1500']);
    // The state shown is still the one as of the creation.
    expect(await rowOf(dialog, 'State as of', 'terms.priceCents')).toEqual(['terms.priceCents', '1000']);

    // The other way round: as of the change, compared with the creation, reads the same.
    await dialog.getByLabel('As of', { exact: true }).selectOption(String(change.position));
    await dialog.getByLabel('Compare with…').selectOption(String(creation.position));
    await dialog.getByText(`Position ${change.position} · version ${history.length} ·`).waitFor();
    expect(await rowOf(dialog, 'State as of', 'terms.priceCents')).toEqual(['terms.priceCents', '1500']);
    expect(await rowOf(dialog, 'Changes from', 'terms.priceCents')).toEqual(['terms.priceCents', '1000', '1500']);

    // A time typed in, before the plan was made: it did not exist yet.
    await dialog.getByLabel('As of', { exact: true }).selectOption('time');
    await dialog.getByText('Enter the full time to replay up to.').waitFor();
    await dialog.getByLabel('As of (time)').fill('2020-01-01T00:00:00');
    await dialog.getByText('It did not exist yet at this point').waitFor();

    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows a user active as of registration, and the deactivation as status active → deactivated', async () => {
    const history = await historyOf('user', customer.user.id);
    const registration = history.find((entry) => entry.action === 'UserRegistered')!;
    const deactivation = history.find((entry) => entry.action === 'UserDeactivated')!;
    expect(registration && deactivation).toBeTruthy();

    const page = await openHistory(staff, `users/${customer.user.id}`, history.length);
    const dialog = await viewAsOf(page, registration);
    expect(await rowOf(dialog, 'State as of', 'status')).toEqual(['status', 'active']);
    // No secret reaches the console: the api leaves password hashes out of the replayed state.
    expect(await dialog.innerText()).not.toMatch(/passwordHash/);

    await dialog.getByLabel('Compare with…').selectOption('now');
    expect(await rowOf(dialog, 'Changes from', 'status')).toEqual(['status', 'active', 'deactivated']);
    await dialog.getByLabel('Compare with…').selectOption(String(deactivation.position));
    expect(await rowOf(dialog, 'Changes from', 'status')).toEqual(['status', 'active', 'deactivated']);
  });

  it('opens for an auditor, who only reads', async () => {
    const history = await historyOf('plan', plan.id);
    const page = await openHistory(auditor, `plans/${plan.id}`, history.length);
    const dialog = await viewAsOf(page, history.at(-1)!);
    expect(await rowOf(dialog, 'State as of', 'terms.priceCents')).toEqual(['terms.priceCents', '1500']);
    await dialog.getByLabel('Compare with…').selectOption(String(history[0]!.position));
    expect(await rowOf(dialog, 'Changes from', 'terms.priceCents')).toEqual(['terms.priceCents', '1000', '1500']);
  });

  it('shows the api’s refusal in its own words rather than an empty dialog', async () => {
    const history = await historyOf('plan', plan.id);
    const page = await openHistory(staff, `plans/${plan.id}`, history.length);
    // The console only sends points it made itself, so the api's 400 is staged in its error format.
    const refusal = 'Give a log position (a whole number) or a time (ISO 8601 with offset)';
    await page.route('**/admin-panel/audit/state/**', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Bad Request', errors: { as_of: [refusal] } }),
      }),
    );
    const dialog = await viewAsOf(page, history[0]!);
    await dialog.getByRole('alert').filter({ hasText: 'Could not replay this resource' }).waitFor();
    expect(await dialog.getByRole('alert').innerText()).toContain(refusal);
  });
});
