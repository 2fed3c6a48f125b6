import { randomBytes, randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { AdminDeviceList, AuthResponse, CreatedApiToken, Network, UploadResponse } from '@meshwork/contracts';
import { sha256, uploadForm } from '@meshwork/testkit/api/upload-kit';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';
import { registerAccount, registerCustomer, subscribeToPro, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { eventually } from '@meshwork/testkit/eventually';
import { ensureConsoleBuilt } from './console-kit';

/**
 * Issue 12, section 4, in a real browser against the whole api: on a user, staff see their
 * devices (and revoke one) and their networks (a suspended one with its reason); the
 * dashboard counts both. Issue 35: staff see their API tokens (never a secret) and revoke one.
 */
describe('staff console: a user’s devices and networks (real browser)', () => {
  let site: BrowserTest;
  let base = '';
  let staff: AuthResponse;
  let customer: TestCustomer;
  let dropped = '';

  /** A call as staff to the listening api; `body` is sent as JSON. */
  async function asStaff<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${staff.tokens.access}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** A small published model open to the Pro plan; answers its catalog id and name. */
  async function proModel(): Promise<{ id: string; name: string }> {
    const name = `model_${randomUUID().slice(0, 8)}`;
    const data = randomBytes(2_000);
    const fields = {
      name,
      display_name: name,
      version: '1.0.0',
      allowed_plans: '["pro"]',
      checksums: JSON.stringify({ 'w.onnx': sha256(data) }),
    };
    const response = await fetch(`${base}/api/v1/models/admin/upload/`, {
      method: 'POST',
      body: uploadForm(fields, [{ name: 'w.onnx', data }]),
      headers: { Authorization: `Bearer ${staff.tokens.access}` },
    });
    if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    const uploaded = (await response.json()) as UploadResponse;
    return { id: uploaded.model_id, name: uploaded.model_name };
  }

  beforeAll(async () => {
    ensureConsoleBuilt();
    site = await startBrowserTest({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    base = site.base;
    const app = site.subject.app;
    staff = await registerAccount(app, 'staff', randomUUID().slice(0, 6), true);
    customer = await registerCustomer(app);
    await subscribeToPro(base, customer.token);
    const server = await signInDevice(deviceHost(app), customer, 'Office server');
    await signInDevice(deviceHost(app), customer, 'Reception laptop');

    const [kept, leaving] = [await proModel(), await proModel()];
    dropped = leaving.name;
    const create = async (name: string, model: string) =>
      (await customer.post('/networks/create/', { name, model_id: model }).expect(201)).body as Network;
    const office = await create('head-office', kept.name);
    await create('lab', leaving.name);
    await customer.post(`/networks/${office.id}/host/`, { device_id: server.device_id }).expect(200);
    // The lab's model leaves the Pro plan: the lab is suspended, naming why.
    await asStaff('PUT', `/models/admin/${leaving.id}/access/`, { allowed_plans: ['enterprise'] });
    await eventually(
      async () => ((await customer.get('/networks/').expect(200)).body.networks as Network[]).some((n) => n.status === 'suspended'),
      'the lab to be suspended',
    );
  }, 240_000);

  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  /** A console tab signed in as staff, recording what appears (a toast lasts seconds). */
  async function signedInPage(): Promise<Page> {
    const page = await site.openPage(staff, { viewport: { width: 1400, height: 900 } });
    await recordAppearances(page);
    return page;
  }
  const row = (page: Page, text: string) => page.locator('tbody tr', { hasText: text });

  it('lists the user’s devices and revokes one after a confirmation: the list shows it revoked by staff', async () => {
    const page = await signedInPage();
    await page.goto(`${base}/admin/users/${customer.userId}/show`);
    await page.getByRole('tab', { name: 'Devices' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/show/devices'));
    await row(page, 'Office server').waitFor();
    const headers = await page.getByRole('columnheader').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual(['Name', 'Platform', 'App version', 'Last seen', 'Status', 'Actions']);
    const laptop = row(page, 'Reception laptop');
    await expect(laptop.innerText()).resolves.toMatch(/linux\s+1\.0\.0[\s\S]*Active/);

    await laptop.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Revoke the device "Reception laptop"?').waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await waitForAppearance(page, 'Device revoked', { announced: true });
    await laptop.getByText('Revoked by staff').waitFor();
    expect(await laptop.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    await row(page, 'Office server').getByText('Active', { exact: true }).waitFor();

    const { devices } = await asStaff<AdminDeviceList>('GET', `/admin-panel/users/${customer.userId}/devices/`);
    expect(devices.map((d) => [d.name, d.status, d.revoked_by]).sort()).toEqual([
      ['Office server', 'active', null],
      ['Reception laptop', 'revoked', 'staff'],
    ]);
  });

  it('lists the user’s networks oldest first: the host by name, a suspended one with its reason', async () => {
    const page = await signedInPage();
    await page.goto(`${base}/admin/users/${customer.userId}/show/networks`);
    await row(page, 'head-office').waitFor();
    const headers = await page.getByRole('columnheader').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual(['Name', 'Model', 'Status', 'Host', 'Clients', 'Created']);
    expect(await page.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/head-office[\s\S]*Active[\s\S]*Office server\s+0/),
      expect.stringMatching(/lab[\s\S]*Suspended[\s\S]*No host yet\s+0/),
    ]);
    await row(page, 'lab').getByText(`Your Pro plan no longer includes the model ${dropped}.`).waitFor();
  });

  it('shows the user’s API token by name, never its secret, and revokes it: the api refuses it from then on', async () => {
    const created = (await customer.post('/users/api-tokens/', { name: 'Ticketing', scope: 'read' }).expect(201)).body as CreatedApiToken;
    const withToken = () => fetch(`${base}/api/v1/users/dashboard/`, { headers: { Authorization: `Bearer ${created.token}` } });
    expect((await withToken()).status).toBe(200);

    const page = await signedInPage();
    await page.goto(`${base}/admin/users/${customer.userId}/show`);
    await page.getByRole('tab', { name: 'API tokens' }).click();
    const token = row(page, 'Ticketing');
    await token.getByText(`mw_live_…${created.token.slice(-4)}`).waitFor();
    expect(await page.content()).not.toContain(created.token);

    await token.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Revoke "Ticketing"? Requests with it are refused from now on.').waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await waitForAppearance(page, 'API token revoked.', { announced: true });
    await token.getByText('Revoked', { exact: true }).waitFor();
    expect(await token.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect((await withToken()).status).toBe(401);
  });

  it('counts devices (the laptop revoked above) and networks on the dashboard', async () => {
    const page = await signedInPage();
    await page.goto(`${base}/admin/`);
    const card = (label: string) => page.locator('.MuiCard-root', { has: page.getByText(label, { exact: true }) });
    for (const [label, value] of [
      ['Devices', '2'],
      ['Active devices', '1'],
      ['Networks', '2'],
      ['Suspended networks', '1'],
    ]) {
      await card(label!).getByText(value!, { exact: true }).waitFor();
    }
  });
});
