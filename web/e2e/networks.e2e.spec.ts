/// <reference lib="dom" />
import { type AuthResponse, type DeviceList, type NetworkList } from '@meshwork/contracts';
import type { Page } from 'playwright-core';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { networksKit } from './networks-kit';

/**
 * Issue 12 §4 in real Chromium against the whole api: the Networks page creates within the
 * Free plan's limit and shows the server's refusal past it, renames, deletes, chooses a host,
 * shows a join code and removes a client; the devices list revokes a device signed in on /activate.
 */
describe('customer site: networks and devices in a real browser', () => {
  let site: BrowserTest;
  let kit: ReturnType<typeof networksKit>;
  let model = '';
  let staff: AuthResponse;

  beforeAll(async () => {
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '', STRIPE_API_BASE: '' });
    kit = networksKit(site);
    staff = await kit.account(true);
    model = await kit.publishModel(staff, ['free', 'pro', 'enterprise'], 'Basic Assistant');
  }, 120_000);
  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  /** A tab signed in as `customer`, recording what appears (a toast lasts seconds). */
  const signedInPage = async (customer: AuthResponse): Promise<Page> => {
    const page = await site.openPage(customer, { viewport: { width: 1400, height: 1000 } });
    await recordAppearances(page);
    return page;
  };
  const networksPage = async (customer: AuthResponse): Promise<Page> => {
    const page = await signedInPage(customer);
    await page.goto(`${site.base}/networks`);
    await page.getByRole('heading', { name: 'Networks', level: 1 }).waitFor();
    return page;
  };
  const networksOf = async (customer: AuthResponse) =>
    (await kit.call<NetworkList>('GET', '/networks/', customer.tokens.access)).body.networks;
  const createByApi = (customer: AuthResponse, name: string) =>
    kit.call('POST', '/networks/create/', customer.tokens.access, { name, model_id: model });

  it('creates a network within the Free plan, then shows the refusal with the way to upgrade', async () => {
    const customer = await kit.account();
    const page = await networksPage(customer);
    await page.getByRole('heading', { name: 'No networks yet' }).waitFor();
    await page.getByRole('link', { name: 'Download the App' }).waitFor();
    await page.getByRole('button', { name: 'Create Network' }).click();

    let dialog = page.getByRole('dialog', { name: 'Create Network' });
    await dialog.getByLabel('Network name').fill('Office');
    expect(await dialog.getByLabel('Model').inputValue()).toBe(model);
    await dialog.getByRole('button', { name: 'Create Network' }).click();
    await waitForAppearance(page, 'Network "Office" created', { announced: true });
    const office = page.getByRole('region', { name: 'Office' });
    await office.getByText('Model: Basic Assistant · Host: none yet').waitFor();
    await page.getByText('1 of 1 networks · clients 2 per network').waitFor();

    await page.getByRole('button', { name: 'Create Network' }).click();
    dialog = page.getByRole('dialog', { name: 'Create Network' });
    await dialog.getByLabel('Network name').fill('Lab');
    await dialog.getByRole('button', { name: 'Create Network' }).click();
    await dialog.getByRole('alert').getByText('Your Free plan allows 1 network. Upgrade to add more.').waitFor();
    expect(await dialog.getByRole('link', { name: 'See plans in Billing' }).getAttribute('href')).toBe('/billing');
    expect((await networksOf(customer)).map((n) => n.name)).toEqual(['Office']);

    // The dashboard's card counts it (usage statistics) and leads here.
    await page.goto(`${site.base}/dashboard`);
    const card = page.getByRole('group', { name: 'Max Networks' });
    await card.getByText('1 in use', { exact: false }).waitFor();
    expect(await card.getByRole('link', { name: 'Manage networks' }).getAttribute('href')).toBe('/networks');
  });

  it('renames a network, then deletes it after a confirmation', async () => {
    const customer = await kit.account();
    expect((await createByApi(customer, 'Office')).status).toBe(201);
    const page = await networksPage(customer);

    await page.getByRole('region', { name: 'Office' }).getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename Network' });
    expect(await rename.getByLabel('Network name').inputValue()).toBe('Office');
    await rename.getByLabel('Network name').fill('Head office');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('region', { name: 'Head office' }).waitFor();
    expect((await networksOf(customer)).map((n) => n.name)).toEqual(['Head office']);

    await page.getByRole('region', { name: 'Head office' }).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Network' });
    await confirm.getByText('Delete Head office?', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete Network' }).click();
    await page.getByRole('heading', { name: 'No networks yet' }).waitFor();
    expect(await networksOf(customer)).toEqual([]);
  });

  it('lists a device approved on /activate and revokes it: its session stops working at once', async () => {
    const customer = await kit.account();
    const code = await kit.requestDeviceCode('Office PC');
    const page = await signedInPage(customer);
    await page.goto(`${site.base}/activate?user_code=${code.user_code}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Device approved.').waitFor();
    const tokens = await kit.pollToken(code.device_code);
    expect(tokens.status).toBe(200);
    const asDevice = () => kit.call('GET', '/devices/entitlements/', tokens.body.access_token);
    expect((await asDevice()).status).toBe(200);

    await page.goto(`${site.base}/networks`);
    const row = page.locator('tbody tr', { hasText: 'Office PC' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Office PC\s+windows\s+1\.2\.3\s+just now\s+active/i);

    await row.getByRole('button', { name: 'Revoke Office PC' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Device' });
    await confirm.getByText('It is signed out at once', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Revoke Device' }).click();
    await waitForAppearance(page, 'Office PC revoked', { announced: true });
    await row.getByText('revoked', { exact: true }).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);

    expect((await asDevice()).status).toBe(401);
    const { body } = await kit.call<DeviceList>('GET', '/devices/', customer.tokens.access);
    expect(body.devices.map((d) => [d.name, d.status])).toEqual([['Office PC', 'revoked']]);
  });

  it('chooses the host, shows a join code with its countdown, and removes a client that joined with it', async () => {
    const customer = await kit.account();
    await kit.signInDevice(customer, 'Office server');
    const laptop = await kit.signInDevice(customer, 'Reception laptop');
    expect((await createByApi(customer, 'Office')).status).toBe(201);
    const page = await networksPage(customer);
    const office = page.getByRole('region', { name: 'Office' });

    await office.getByLabel('Host device').selectOption({ label: 'Office server' });
    await office.getByRole('button', { name: 'Make Host' }).click();
    await office.getByText('Model: Basic Assistant · Host: Office server').waitFor();

    await office.getByRole('button', { name: 'Show Join Code' }).click();
    const shown = await office.getByLabel('Join code').innerText();
    expect(shown).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    expect(await office.getByRole('timer').innerText()).toMatch(/^expires in 1[45]:\d\d$/);

    const joined = await kit.call('POST', '/networks/join/', laptop.access_token, { code: shown.toLowerCase() });
    expect(joined.status).toBe(200);
    await page.reload();
    await office.getByText('Clients 1 of 2').waitFor();
    await office.getByRole('list', { name: 'Clients of Office' }).getByText('Reception laptop').waitFor();

    await office.getByRole('button', { name: 'Remove Reception laptop' }).click();
    await page.getByRole('dialog', { name: 'Remove Client' }).getByRole('button', { name: 'Remove Client' }).click();
    await office.getByText('Clients 0 of 2').waitFor();
    const [network] = await networksOf(customer);
    expect(network?.clients.devices).toEqual([]);
  });

  // Last: it changes the Free plan, and leaves it as it found it (one network).
  it('shows networks suspended by a lower limit with the reason, and keeps the ones chosen', async () => {
    const setFreeNetworks = async (max: number) =>
      expect((await kit.call('PUT', '/admin-panel/plans/free', staff.tokens.access, { max_networks: max })).status).toBe(200);
    const customer = await kit.account();
    await setFreeNetworks(3);
    for (const name of ['Alpha', 'Bravo', 'Charlie']) expect((await createByApi(customer, name)).status).toBe(201);
    await setFreeNetworks(1);

    const page = await networksPage(customer);
    const reason = 'Suspended: The Free plan now allows fewer networks. Choose which networks to keep.';
    await page.getByRole('region', { name: 'Charlie' }).getByText(reason).waitFor();
    await page.getByRole('region', { name: 'Bravo' }).getByText(reason).waitFor();
    await page.getByText('2 networks are suspended', { exact: false }).waitFor();
    await page.getByText('3 of 1 networks', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Choose Networks to Keep' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose Networks to Keep' });
    expect(await dialog.getByLabel('Alpha').isChecked()).toBe(true);
    await dialog.getByLabel('Alpha').uncheck();
    await dialog.getByLabel('Charlie').check();
    await dialog.getByRole('button', { name: 'Keep Selected' }).click();
    await waitForAppearance(page, 'Networks updated', { announced: true });
    await page
      .getByRole('region', { name: 'Alpha' })
      .getByText('Suspended: Not among the networks you chose to keep on your Free plan.')
      .waitFor();
    expect((await networksOf(customer)).map((n) => `${n.name}:${n.status}`)).toEqual([
      'Alpha:suspended',
      'Bravo:suspended',
      'Charlie:active',
    ]);
  });
});
