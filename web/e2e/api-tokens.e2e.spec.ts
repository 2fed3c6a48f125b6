/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import { API_TOKEN_PATTERN } from '@meshwork/contracts';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';

/**
 * Issue 35 §1 in real Chromium against the whole api: a Free customer creates a read-only
 * token on /settings/api, sees its secret once, uses it from outside the browser, revokes it
 * and sees it refused.
 */
describe('customer site: API tokens in a real browser', () => {
  let site: BrowserTest;
  beforeAll(async () => {
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  }, 120_000);
  afterAll(() => site?.close());

  const dashboard = (token: string) => fetch(`${site.base}/api/v1/users/dashboard/`, { headers: { Authorization: `Bearer ${token}` } });

  it('creates a token shown once, which works until it is revoked', async () => {
    const customer = await registerAccount(site.subject.app, 'customer', randomUUID().slice(0, 8));
    const page = await site.openPage(customer, { viewport: { width: 1400, height: 1000 } });
    await page.goto(`${site.base}/settings/api`);
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
    await page.getByText('Your plan allows read-only tokens, 60 requests a minute each.').waitFor();
    await page.getByText('No API tokens yet.').waitFor();

    await page.getByRole('button', { name: 'Create token' }).click();
    const form = page.getByRole('dialog', { name: 'Create API token' });
    await form.getByLabel('Name').fill('Ticketing');
    expect(await form.locator('option[value="read_write"]').isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Create token' }).click();

    const shown = page.getByRole('dialog', { name: 'Token "Ticketing" created' });
    await shown.getByText('it will not be shown again').waitFor();
    const token = await shown.getByLabel('API token').inputValue();
    expect(token).toMatch(API_TOKEN_PATTERN);
    await shown.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: /Ticketing/ });
    await row.getByText(`mw_live_…${token.slice(-4)}`).waitFor();
    expect(await page.content()).not.toContain(token);

    const used = await dashboard(token);
    expect(used.status).toBe(200);
    expect(((await used.json()) as { user: { id: string } }).user.id).toBe(customer.user.id);
    expect(used.headers.get('ratelimit-limit')).toBe('60');

    // The documentation's example, as printed on this site, with the token pasted in.
    await page.goto(`${site.base}/documentation#api-reference`);
    const figure = page.getByRole('figure', { name: 'Your dashboard, with an API token' });
    await figure.getByText(`curl ${site.base}/`).waitFor(); // the prerendered page names a placeholder host until hydrated
    const example = await figure.locator('code').innerText();
    const url = /curl (\S+)/.exec(example)?.[1];
    expect(url).toBe(`${site.base}/api/v1/users/dashboard/`);
    expect(example).toContain('-H "Authorization: Bearer $MESHWORK_API_TOKEN"');
    expect((await fetch(url!, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);

    await page.goto(`${site.base}/settings/api`);
    await row.getByRole('button', { name: 'Revoke Ticketing' }).click();
    await page.getByRole('dialog', { name: 'Revoke API token' }).getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('No API tokens yet.').waitFor();
    expect((await dashboard(token)).status).toBe(401);
  });
});
