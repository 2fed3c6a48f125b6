/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * The host window's Network section in real Chromium: two hosts of one Pro customer on loopback,
 * against the real api. The office desktop creates a network in its window and shows the join
 * code; the laptop joins with it; the office's window then shows the laptop online with the
 * blocks it runs; Persian; removing the laptop and stopping hosting.
 */
/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import type { HostNetwork, HostState } from '@meshwork/contracts';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { launchBrowser } from '@meshwork/testkit/browser';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';
import { uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';

/** Text as the person reads it: without the invisible marks that keep numbers left to right in Persian. */
const readable = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '');

/** The seconds left in an 'Expires in [h:]m:ss' text. */
const secondsLeft = (text: string) =>
  /(\d+:)?\d+:\d\d/
    .exec(text)![0]
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);

/** Whether the host's signed document lists the network it holds, active: only then does it announce it on the LAN. */
const listsOwnNetwork = (state: HostState) =>
  state.network !== null && (state.entitlements?.networks.some((n) => n.id === state.network!.id && n.status === 'active') ?? false);

describe('the Network section in a real browser', () => {
  let world: NetworksWorld;
  let office: TestHost;
  let laptop: TestHost;
  let browser: Browser;
  let officePage: Page;
  let laptopPage: Page;
  let model: { name: string; id: string };
  let network: HostNetwork;

  beforeAll(async () => {
    world = await networksWorld();
    model = await uploadSmolLM2(world, ['pro'], 2);
    const { email } = await world.customer('pro');
    office = await startHost(world.base, { name: 'Office desktop' });
    laptop = await startHost(world.base, { name: 'Laptop' });
    for (const host of [office, laptop]) {
      expect((await host.call('POST', '/host/sign-in/password', { email, password: TEST_PASSWORD })).status).toBe(200);
      await host.until((s) => s.models.some((m) => m.name === model.name), 20_000, 'the model in the plan');
      expect((await host.call('POST', '/host/models/download', { name: model.name })).status).toBe(200);
    }
    await Promise.all(
      [office, laptop].map((host) =>
        host.until((s) => s.models.find((m) => m.name === model.name)?.status === 'installed', 120_000, 'the model installed'),
      ),
    );
    browser = await launchBrowser();
    // One context each: both windows are on 127.0.0.1, and cookies do not tell ports apart.
    officePage = await (await browser.newContext()).newPage();
    laptopPage = await (await browser.newContext()).newPage();
    await officePage.goto(office.control.windowUrl());
    await laptopPage.goto(laptop.control.windowUrl());
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await laptop?.close();
    await office?.close();
    await world?.close();
  });

  it('explains a network, offers the installed model, and looks for networks on the LAN', async () => {
    for (const page of [officePage, laptopPage]) {
      await page.getByRole('button', { name: 'Network', exact: true }).click();
      await page.getByRole('heading', { name: 'Network', exact: true }).waitFor();
      await page.getByText('A network runs one model across several of your machines on this LAN').waitFor();
    }
    expect(await officePage.getByLabel('Model').inputValue()).toBe(model.name);
    // No network exists yet, so the laptop finds none.
    expect(await laptopPage.getByRole('status').filter({ hasText: 'Looking for your networks on this LAN…' }).count()).toBe(1);
  });

  it('creates a network from the form and shows its join code, counting down, and no clients yet', async () => {
    expect(await officePage.getByRole('button', { name: 'Create network' }).isDisabled()).toBe(true);
    await officePage.getByLabel('Network name').fill('Office');
    await officePage.getByRole('button', { name: 'Create network' }).click();
    await officePage.getByTestId('network-name').filter({ hasText: 'Office' }).waitFor({ timeout: 20_000 });
    // The network is the office's own at once; its plan's cap comes with the next signed document
    // that lists it (after the api's read models have caught up), and so does its announcement on the LAN.
    await office.until((s) => listsOwnNetwork(s), 30_000, 'the signed document listing the office’s network');
    await officePage
      .getByTestId('client-count')
      .filter({ hasText: /^0 of \d+ clients$/ })
      .waitFor();

    network = (await office.state()).network!;
    expect(network).toMatchObject({ name: 'Office', model: model.name, role: 'host', status: 'active' });
    const code = await officePage.getByTestId('join-code').textContent();
    expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(code).toBe(network.join_code?.code);

    // Counting down: the time left shown falls as the seconds pass.
    const expiry = officePage.getByTestId('join-code-expiry');
    const before = readable(await expiry.textContent());
    expect(before).toMatch(/^Expires in (\d+:)?\d+:\d\d$/);
    await officePage.waitForFunction(
      (shown) => document.querySelector('[data-testid="join-code-expiry"]')?.textContent?.replace(/[\u2066-\u2069]/g, '') !== shown,
      before,
    );
    const after = readable(await expiry.textContent());
    expect(after).toMatch(/^Expires in (\d+:)?\d+:\d\d$/);
    expect(secondsLeft(after)).toBeLessThan(secondsLeft(before));

    expect(network.max_clients).not.toBeNull();
    expect(await officePage.getByTestId('client-count').textContent()).toBe(`0 of ${network.max_clients} clients`);
    const host = officePage.getByRole('row', { name: /Office desktop/ });
    expect(await host.getByRole('cell').first().textContent()).toBe('Host');
    expect(await host.getByRole('rowheader').textContent()).toBe('Office desktop (this device)');
    expect(await officePage.getByRole('button', { name: /^Remove / }).count()).toBe(0);
  });

  it('the laptop joins with the code, and the office’s window shows it online with its blocks', async () => {
    const code = (await officePage.getByTestId('join-code').textContent())!;
    // The office announces its network once its signed document lists it (the test before waited
    // for that); the laptop, signed in as the same customer, lists it from the next announcement.
    await laptop.until((s) => s.discovered.some((n) => n.id === network.id), 30_000, 'the office’s network discovered on the LAN');
    const listed = laptopPage.getByRole('listitem', { name: 'Office' });
    await listed.waitFor();
    expect(readable(await listed.textContent())).toContain(`${model.name} · hosted by Office desktop at 127.0.0.1`);
    // Which host: its certificate, as the office's own window shows it, verified before any join
    // (the laptop's signed document names the certificate the office registered at the api).
    const certificate = await officePage.getByTestId('host-certificate').textContent();
    expect(certificate).toMatch(/^([0-9a-f]{4} ){4}[0-9a-f]{4}$/);
    expect(await listed.getByTestId('host-certificate').textContent()).toBe(certificate);
    await listed
      .getByTestId('host-verified')
      .filter({ hasText: /^Verified: the host Meshwork names/ })
      .waitFor({ timeout: 20_000 });
    // A wrong code: the host's refusal (its code, with the api's words as its value) under the form.
    await listed.getByLabel('Join code').fill('BBBB-CCCC');
    await listed.getByRole('button', { name: 'Join' }).click();
    await listed
      .getByRole('alert')
      .filter({ hasText: /invalid or has expired/ })
      .waitFor({ timeout: 20_000 });
    await listed.getByLabel('Join code').fill(code.toLowerCase());
    expect(await listed.getByLabel('Join code').inputValue()).toBe(code);
    await listed.getByRole('button', { name: 'Join' }).click();

    await laptopPage.getByTestId('network-name').filter({ hasText: 'Office' }).waitFor({ timeout: 20_000 });
    await laptopPage.getByTestId('host-connection').filter({ hasText: 'Connected to the host' }).waitFor({ timeout: 20_000 });
    expect(await laptopPage.getByRole('row', { name: /Office desktop/ }).count()).toBe(1);
    expect(await laptopPage.getByTestId('join-code').count()).toBe(0);

    const row = officePage.getByRole('row', { name: /Laptop/ });
    await row.getByTestId('member-connection').filter({ hasText: 'Online' }).waitFor({ timeout: 30_000 });
    await row
      .getByTestId('member-blocks')
      .filter({ hasText: /^Blocks? \d/ })
      .waitFor({ timeout: 30_000 });
    // The row shows the blocks the host gave the laptop; the two devices hold the whole model (2 blocks).
    const members = (await office.state()).network!.members;
    expect(members.map((m) => m.name).sort()).toEqual(['Laptop', 'Office desktop']);
    expect([...new Set(members.flatMap((m) => m.blocks))].sort()).toEqual([0, 1]);
    const laptopBlocks = members.find((m) => m.name === 'Laptop')!.blocks;
    expect(await row.getByTestId('member-blocks').textContent()).toBe(
      laptopBlocks.length === 1 ? `Block ${laptopBlocks[0]}` : `Blocks ${Math.min(...laptopBlocks)}–${Math.max(...laptopBlocks)}`,
    );
    expect(await officePage.getByTestId('client-count').textContent()).toBe(`1 of ${network.max_clients} clients`);
    expect(await row.getByRole('cell').first().textContent()).toBe('Client');
  }, 90_000);

  it('speaks Persian, right to left, in the Network section', async () => {
    await officePage.getByRole('button', { name: 'Settings' }).click();
    await officePage.getByLabel('Language').selectOption('fa');
    await officePage.getByRole('button', { name: 'شبکه', exact: true }).click();
    await officePage.getByRole('heading', { name: 'شبکه', exact: true }).waitFor();
    expect(await officePage.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['fa', 'rtl']);
    const max = new Intl.NumberFormat('fa-IR').format(network.max_clients!);
    expect(await officePage.getByTestId('client-count').textContent()).toBe(`۱ از ${max} کارخواه`);
    expect(await officePage.getByRole('columnheader', { name: 'بلوک‌ها' }).count()).toBe(1);
    expect(readable(await officePage.getByTestId('join-code-expiry').textContent())).toMatch(/^([۰-۹]+:)?[۰-۹]+:[۰-۹]{2} تا انقضا$/);

    await officePage.getByRole('button', { name: 'تنظیمات' }).click();
    await officePage.getByLabel('زبان').selectOption('en');
    await officePage.getByRole('button', { name: 'Network', exact: true }).click();
    await officePage.getByRole('heading', { name: 'Network', exact: true }).waitFor();
  });

  it('removes the laptop after confirming, then stops hosting after confirming', async () => {
    const dialogs: string[] = [];
    officePage.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await officePage.getByRole('button', { name: 'Remove Laptop' }).click();
    await officePage.getByRole('row', { name: /Laptop/ }).waitFor({ state: 'detached', timeout: 20_000 });
    expect(await officePage.getByTestId('client-count').textContent()).toBe(`0 of ${network.max_clients} clients`);
    expect(dialogs).toEqual(['Remove “Laptop” from the network? It stops running its part of the model at once.']);

    await officePage.getByRole('button', { name: 'Stop hosting' }).click();
    await officePage.getByRole('heading', { name: 'Create a network' }).waitFor({ timeout: 20_000 });
    expect(dialogs).toHaveLength(2);
    expect((await office.state()).network).toBeNull();
  });
});
