import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import type { AdminPlan, AuthResponse, Plan } from '@meshwork/contracts';
import { ensureConsoleBuilt } from './console-kit';

/** A deleted (archived) plan found again in the console's plans screen and restored, in a real browser. */
describe('staff console: restoring an archived plan (real browser)', () => {
  let site: BrowserTest;
  let staff: AuthResponse;
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
    staff = await registerAccount(site.subject.app, 'staff', tag, true);
  }, 240_000);

  afterAll(() => site?.close());

  async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await fetch(`${site.base}/api/v1${url}`, {
      method,
      headers: { Authorization: `Bearer ${staff.tokens.access}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as T;
  }

  const planCard = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

  it('lists archived plans behind the filter, marked so, and puts one back on sale with Restore', async () => {
    const name = `Seasonal ${tag}`;
    const { id } = await api<AdminPlan>('POST', '/admin-panel/plans', { name, price: 9, tier: 3 });
    await api('DELETE', `/admin-panel/plans/${id}`);

    const page = await site.openPage(staff, { viewport: { width: 1600, height: 1000 } });
    await recordAppearances(page); // the Restore toast lasts seconds
    await page.goto(`${site.base}/admin/plans`);
    await planCard(page, 'Pro').waitFor();
    expect(await planCard(page, name).count()).toBe(0);

    await page.getByLabel('Show archived plans').check();
    const card = planCard(page, name);
    await card.getByText('Archived', { exact: true }).waitFor();
    await planCard(page, 'Pro').waitFor({ state: 'detached' }); // only the archived ones
    expect(await card.getByRole('button', { name: 'Edit' }).count()).toBe(0);

    await card.getByRole('button', { name: 'Restore' }).click();
    await waitForAppearance(page, `Plan ${name} restored: it is on sale again`, { announced: true });
    await card.waitFor({ state: 'detached' });

    await page.getByLabel('Show archived plans').uncheck();
    await planCard(page, name).getByRole('button', { name: 'Edit' }).waitFor();
    expect(await api<AdminPlan>('GET', `/admin-panel/plans/${id}`)).toMatchObject({ archived: false, is_active: true });
    expect((await api<Plan[]>('GET', '/subscriptions/plans/')).map((plan) => plan.slug)).toContain(id);
  });
});
