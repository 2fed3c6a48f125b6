import fs from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AdminModel, AdminPlan, AuthResponse, UploadResponse } from '@meshwork/contracts';
import { sha256, uploadForm } from '@meshwork/testkit/api/upload-kit';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { ensureConsoleBuilt, localDate } from './console-kit';

/** Issue 11, section 6: a plan staff made is a column of the access matrix and of the CSV, in a real browser. */
describe('staff console: models for a staff-made plan (real browser)', () => {
  let site: BrowserTest;
  let base = '';
  let staff: AuthResponse;
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
    base = site.base;
    staff = await registerAccount(site.subject.app, 'staff', tag, true);
  }, 240_000);
  afterAll(() => site?.close());

  async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { Authorization: `Bearer ${staff.tokens.access}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as T;
  }

  it('shows a "Team" plan as a matrix column and a CSV column; ticking it gives the model to the plan', async () => {
    // A new plan without a tier sorts after the seeded three: the last column.
    const team = await api<AdminPlan>('POST', '/admin-panel/plans', { name: 'Team', slug: `team-${tag}`, price: 19 });
    const data = randomBytes(10_000);
    const name = `teamed_${tag}`;
    const form = uploadForm(
      {
        name,
        display_name: `Model ${name}`,
        version: '1.0.0',
        allowed_plans: '["pro"]',
        checksums: JSON.stringify({ 'w.bin': sha256(data) }),
      },
      [{ name: 'w.bin', data }],
    );
    const uploaded = (await (
      await fetch(`${base}/api/v1/models/admin/upload/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${staff.tokens.access}` },
        body: form,
      })
    ).json()) as UploadResponse;

    const page = await site.openPage(staff, { viewport: { width: 1600, height: 1000 }, acceptDownloads: true });
    await page.goto(`${base}/admin/models`);
    const card = page.getByRole('article', { name: `Model ${name}`, exact: true });
    await card.getByText('Pro Plan').waitFor();

    await page.getByRole('button', { name: 'Manage Access' }).click();
    const matrix = page.getByRole('dialog', { name: 'Model Access Matrix' });
    await matrix.getByRole('columnheader', { name: 'Team Plan' }).waitFor();
    await matrix.getByRole('checkbox', { name: `Model ${name}: Team Plan` }).check();
    await matrix.getByRole('button', { name: 'Save Changes' }).click();
    await matrix.waitFor({ state: 'detached' });
    await card.getByText('Team Plan').waitFor();
    expect((await api<AdminModel>('GET', `/models/admin/${uploaded.model_id}/`)).allowedPlans).toEqual(['pro', team.id]);
    // The plan form reads the same access.
    expect((await api<AdminPlan>('GET', `/admin-panel/plans/${team.id}`)).allowed_models).toEqual([name]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe(`model-access-${localDate()}.csv`);
    const lines = fs.readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(lines[0]).toBe('Model Name,Version,Free Plan,Pro Plan,Enterprise Plan,Team Plan');
    expect(lines).toContain(`Model ${name},1.0.0,No,Yes,No,Yes`);
  });
});
