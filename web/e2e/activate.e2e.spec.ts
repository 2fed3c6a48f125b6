/// <reference lib="dom" />
import type { DeviceList } from '@meshwork/contracts';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { networksKit } from './networks-kit';

/**
 * /activate (issue 12 §1, RFC 8628) in real Chromium: a desktop host asks for a code over
 * HTTP, the person approves or denies it on the site, the host's poll gets tokens or
 * access_denied; a signed-out visitor goes through /login and comes back with the code.
 */
describe('customer site: /activate in a real browser', () => {
  let site: BrowserTest;
  let kit: ReturnType<typeof networksKit>;

  beforeAll(async () => {
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '', STRIPE_API_BASE: '' });
    kit = networksKit(site);
  }, 120_000);
  afterAll(() => site?.close());
  afterEach(() => site.closePages());

  it('approves the device behind the link’s code under the name given: the host’s poll gets its tokens', async () => {
    const customer = await kit.account();
    const code = await kit.requestDeviceCode('DESKTOP-7Q2');
    const page = await site.openPage(customer);
    await page.goto(`${site.base}/activate?user_code=${code.user_code}`);

    await page.getByLabel('Name this device').waitFor();
    const device = page.getByRole('definition');
    expect(await device.allInnerTexts()).toEqual([
      code.user_code,
      'DESKTOP-7Q2',
      'windows',
      '1.2.3',
      expect.stringMatching(/\d{4}, \d+:\d\d [AP]M$/),
    ]);
    await page.getByLabel('Name this device').fill('Studio PC');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').getByText('You can return to your device', { exact: false }).waitFor();

    const tokens = await kit.pollToken(code.device_code);
    expect(tokens.status).toBe(200);
    const { body } = await kit.call<DeviceList>('GET', '/devices/', customer.tokens.access);
    expect(body.devices.map((d) => d.name)).toEqual(['Studio PC']);
  });

  it('denies a typed code (any case, no dash): the host is told access_denied', async () => {
    const customer = await kit.account();
    const code = await kit.requestDeviceCode('Unknown laptop');
    const page = await site.openPage(customer);
    await page.goto(`${site.base}/activate`);
    await page.getByLabel('Code shown on your device').fill('abc');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Codes look like BCDF-GHJK', { exact: false }).waitFor();

    await page.getByLabel('Code shown on your device').fill(code.user_code.replace('-', '').toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Unknown laptop').waitFor();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('Sign-in request denied.').waitFor();

    const poll = await kit.pollToken(code.device_code);
    expect([poll.status, poll.body.error]).toEqual([400, 'access_denied']);
  });

  it('says so for a code nobody asked for, and for one already used', async () => {
    const customer = await kit.account();
    const page = await site.openPage(customer);
    await page.goto(`${site.base}/activate?user_code=BCDF-GHJK`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByLabel('Code shown on your device').inputValue()).toBe('BCDF-GHJK');

    const code = await kit.requestDeviceCode('Used once');
    await kit.call('POST', '/devices/activate/', customer.tokens.access, { user_code: code.user_code, approve: false });
    await page.goto(`${site.base}/activate?user_code=${code.user_code}`);
    await page.getByRole('alert').getByText('This code has already been used.').waitFor();
  });

  it('sends a signed-out visitor to /login and back to /activate with the code kept', async () => {
    const customer = await kit.account();
    const code = await kit.requestDeviceCode('Front desk');
    const page = await site.openPage();
    await page.goto(`${site.base}/activate?user_code=${code.user_code}`);
    await page.waitForURL(/\/login$/);
    await page.getByLabel('Email', { exact: true }).fill(customer.user.email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${site.base}/activate?user_code=${code.user_code}`);
    await page.getByText('Front desk').waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Device approved.').waitFor();
    expect((await kit.pollToken(code.device_code)).status).toBe(200);
  });
});
