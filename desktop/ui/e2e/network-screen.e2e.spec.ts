/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * The host window's Network section in real Chromium: two hosts of one Pro customer on loopback,
 * against the real api. The office desktop installs the model, creates a network in its window
 * and shows the join code; the laptop, which never downloads the model, joins with it; the
 * office's window then shows each device's share: the blocks it runs, its memory, its disk and
 * where its files came from (the laptop's from the office over the LAN), and, after an answer,
 * its work and its memory over time, photographed as test-results/network-devices.png; Persian;
 * removing the laptop and stopping hosting (the laptop's window says why it left).
 */
/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import OpenAI from 'openai';
import type { Browser, Locator, Page } from 'playwright-core';
import type { HostNetwork, HostNetworkMember, HostState } from '@meshwork/contracts';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { launchBrowser } from '@meshwork/testkit/browser';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';
import { CAPITAL_OF_FRANCE, uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';
import { SHARE_RATE_ENV } from '../../src/runtime/network/share-server';
import { bytesIn } from '../src/messages';

const SHOT = resolve(__dirname, '../../../test-results/network-devices.png');
/** The package's blocks: enough that the strip shows who runs which. */
const BLOCKS = 4;
/** The office shares at 32 MiB/s, so the laptop's share (about 80 MB) takes seconds: long enough to see it come. */
const SHARE_RATE = 32 * 2 ** 20;
const size = bytesIn('en-US');

/** Text as the person reads it: without the invisible marks that keep numbers left to right in Persian. */
const readable = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '');

/** The seconds left in an 'Expires in [h:]m:ss' text. */
const secondsLeft = (text: string) =>
  /(\d+:)?\d+:\d\d/
    .exec(text)![0]
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);

/** The devices' shares as the office reports them, once both hold theirs whole and the laptop runs blocks. */
function sharesHeld(state: HostState): { office: HostNetworkMember; laptop: HostNetworkMember } | null {
  const office = state.network?.members.find((m) => m.role === 'host');
  const laptop = state.network?.members.find((m) => m.name === 'Laptop');
  const whole = (m: HostNetworkMember | undefined) =>
    m?.share != null && m.share.transfer === null && m.share.files.length > 0 && m.share.memory.weights_bytes > 0;
  return office && laptop && laptop.blocks.length > 0 && whole(office) && whole(laptop) ? { office, laptop } : null;
}

/** Waits until the page shows exactly `text` there (the window follows the host's state as it changes). */
const shows = (locator: Locator, text: string) =>
  locator.filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).waitFor({ timeout: 10_000 });

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
    process.env[SHARE_RATE_ENV] = String(SHARE_RATE);
    world = await networksWorld();
    model = await uploadSmolLM2(world, ['pro'], BLOCKS);
    const { email } = await world.customer('pro');
    office = await startHost(world.base, { name: 'Office desktop' });
    laptop = await startHost(world.base, { name: 'Laptop' });
    for (const host of [office, laptop]) {
      expect((await host.call('POST', '/host/sign-in/password', { email, password: TEST_PASSWORD })).status).toBe(200);
      await host.until((s) => s.models.some((m) => m.name === model.name), 20_000, 'the model in the plan');
    }
    // Only the office downloads the model: the laptop gets its share from the office.
    expect((await office.call('POST', '/host/models/download', { name: model.name })).status).toBe(200);
    await office.until((s) => s.models.find((m) => m.name === model.name)?.status === 'installed', 120_000, 'the model installed');
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
    delete process.env[SHARE_RATE_ENV];
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
    const host = officePage.getByRole('listitem', { name: /^Office desktop/ });
    expect(await host.getByTestId('member-role').textContent()).toBe('Host');
    expect(await host.getByTestId('member-name').textContent()).toBe('Office desktop (this device)');
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
    expect(await laptopPage.getByRole('listitem', { name: /^Office desktop/ }).count()).toBe(1);
    expect(await laptopPage.getByTestId('join-code').count()).toBe(0);

    const card = officePage.getByRole('listitem', { name: /^Laptop/ });
    await card.getByTestId('member-connection').filter({ hasText: 'Online' }).waitFor({ timeout: 30_000 });
    // The laptop fetches its share from the office before it runs its blocks: a bar while it comes.
    const seen = await officePage.waitForFunction(
      (element) => {
        // The share's files under way (first comes the catalog's manifest alone, a few KB).
        const bar = element?.querySelector('[data-testid="member-transfer"] [role="progressbar"]');
        const [done, total] = [Number(bar?.getAttribute('aria-valuenow')), Number(bar?.getAttribute('aria-valuemax'))];
        return bar && total > 1_000_000 && done < total ? { label: bar.getAttribute('aria-label'), done, total } : null;
      },
      await card.elementHandle(),
      { timeout: 30_000 },
    );
    const transfer = (await seen.jsonValue())!;
    expect(transfer.label).toBe(`Receiving its share: ${size(transfer.done)} of ${size(transfer.total)}`);
    const { laptop: member } = sharesHeld(await office.until((s) => sharesHeld(s) !== null, 60_000, 'both shares held'))!;
    // The card shows the blocks the host gave the laptop; the two devices hold the whole model.
    const members = (await office.state()).network!.members;
    expect(members.map((m) => m.name).sort()).toEqual(['Laptop', 'Office desktop']);
    expect([...new Set(members.flatMap((m) => m.blocks))].sort()).toEqual([...Array(BLOCKS).keys()]);
    const blocks = [...member.blocks].sort((a, b) => a - b);
    const list = blocks.length === 1 ? `Block ${blocks[0]}` : `Blocks ${blocks[0]}–${blocks.at(-1)}`;
    await card
      .getByTestId('member-blocks')
      .filter({ hasText: `${list} (${blocks.length}/${BLOCKS})` })
      .waitFor();
    expect(await officePage.getByTestId('client-count').textContent()).toBe(`1 of ${network.max_clients} clients`);
    expect(await card.getByTestId('member-role').textContent()).toBe('Client');
  }, 120_000);

  it('shows each device’s share: its blocks on the model’s strip, its memory, disk, and where its files came from', async () => {
    const { office: host, laptop: member } = sharesHeld(await office.state())!;
    // The laptop never installed the model: every file of its share came from the office over the LAN.
    expect((await laptop.state()).models.find((m) => m.name === model.name)?.status).not.toBe('installed');
    expect(member.share!.files.map((f) => f.source)).toEqual(member.share!.files.map(() => 'lan'));
    expect(host.share!.files.map((f) => f.source)).toEqual(host.share!.files.map(() => 'installed'));

    // The network's strip: every block in the colour of the device that runs it, and a legend in words.
    const network = officePage.getByTestId('network-blocks');
    expect(await network.locator('[data-held]').count()).toBe(BLOCKS);
    expect(await network.locator('[data-held="true"]').count()).toBe(BLOCKS);
    const legend = await network.getByTestId('block-legend').allTextContents();
    expect(legend).toHaveLength(2);
    expect(legend[0]).toMatch(/^Office desktopBlocks? \d/);
    expect(legend[1]).toMatch(/^LaptopBlocks? \d/);

    for (const device of [host, member]) {
      const card = officePage.getByRole('listitem', { name: new RegExp(`^${device.name}`) });
      // Its strip: all the model's blocks, those it runs filled; named in words for those who cannot see the colours.
      const strip = card.getByTestId('block-strip');
      expect(await strip.locator('[data-held]').count()).toBe(BLOCKS);
      const held = await strip.locator('[data-held]').evaluateAll((cells) => cells.map((cell, i) => [i, cell.getAttribute('data-held')]));
      expect(held.filter(([, on]) => on === 'true').map(([i]) => i)).toEqual([...device.blocks].sort((a, b) => a - b));
      expect(await strip.getAttribute('aria-label')).toMatch(new RegExp(`^${device.name}: Blocks? \\d.* of ${BLOCKS}$`));
      // Its memory: the held blocks' weights and the fixed part on the bar, and the measured RSS and peak.
      const memory = device.share!.memory;
      expect(memory.weights_bytes).toBeGreaterThan(0);
      await shows(card.getByTestId('memory-weights'), `Weights held ${size(memory.weights_bytes)}`);
      expect(await card.getByTestId('memory-fixed').textContent()).toMatch(/^Fixed part [\d.,]+ (MB|GB)$/);
      expect(await card.getByTestId('memory-free').textContent()).toMatch(/^Free [\d.,]+ (MB|GB)$/);
      expect(await card.getByTestId('memory-measured').textContent()).toMatch(
        /^Measured: [\d.,]+ (MB|GB) in use, [\d.,]+ (MB|GB) at peak$/,
      );
      // Its disk, and where its files came from, with their bytes.
      const share = device.share!;
      await shows(card.getByTestId('member-disk'), `${size(share.disk_bytes)} used by the model`);
      const source = device === member ? 'From the host over the LAN' : 'Installed whole';
      const bytes = share.files.reduce((sum, file) => sum + file.bytes, 0);
      await shows(card.getByTestId('member-sources'), `${source}: ${size(bytes)} in ${share.files.length} files`);
      await card.getByTestId('member-transfer').waitFor({ state: 'detached' });
    }

    // An answer across both devices: each card shows its work, now and over the last ten minutes.
    const { key } = (await office.call('POST', '/host/api-keys', { name: 'Window test' })).body as { key: string };
    const openai = new OpenAI({ apiKey: key, baseURL: office.openaiBase, maxRetries: 0, timeout: 60_000 });
    const answer = await openai.chat.completions.create({ model: model.name, messages: CAPITAL_OF_FRANCE, temperature: 0 });
    expect(answer.choices[0]!.message.content).toBe('The capital of France is Paris.');
    for (const device of [host, member]) {
      const card = officePage.getByRole('listitem', { name: new RegExp(`^${device.name}`) });
      // Every prompt and answer token passed through each device's blocks within this ten-second step or the last.
      await card
        .getByTestId('member-activity')
        .filter({ hasText: /up to (?:[1-9]|0\.\d*[1-9])[\d.,]* tokens\/s/ })
        .waitFor({ timeout: 10_000 });
      expect(await card.getByTestId('member-rate').textContent()).toMatch(/^[\d.,]+ tokens\/s now$/);
      expect(await card.locator('[data-testid="member-activity"] polyline').count()).toBe(1);
      // Its memory over the same ten minutes: measured once a step while it holds its share (the host
      // measures its own, the laptop reports its), named in words and drawn.
      const memoryHistory = card.getByTestId('member-memory-history');
      await memoryHistory.waitFor({ timeout: 15_000 });
      expect(await memoryHistory.textContent()).toMatch(
        /^Memory over the same 10 minutes: (from [\d.,]+ (MB|GB) to )?[\d.,]+ (MB|GB) in use$/,
      );
      expect(await memoryHistory.locator('polyline, circle').count()).toBeGreaterThan(0);
    }

    // The photograph the issue keeps: the Devices section as a person sees it.
    mkdirSync(resolve(SHOT, '..'), { recursive: true });
    await officePage.getByRole('region', { name: 'Devices' }).screenshot({ path: SHOT });
  });

  it('speaks Persian, right to left, in the Network section', async () => {
    await officePage.getByRole('button', { name: 'Settings' }).click();
    await officePage.getByLabel('Language').selectOption('fa');
    await officePage.getByRole('button', { name: 'شبکه', exact: true }).click();
    await officePage.getByRole('heading', { name: 'شبکه', exact: true }).waitFor();
    expect(await officePage.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['fa', 'rtl']);
    const max = new Intl.NumberFormat('fa-IR').format(network.max_clients!);
    expect(await officePage.getByTestId('client-count').textContent()).toBe(`۱ از ${max} کارخواه`);
    expect(await officePage.getByRole('heading', { name: 'بلوک‌ها', exact: true }).count()).toBe(2);
    // The laptop's share in Persian words and digits.
    const sources = officePage.getByRole('listitem', { name: /^Laptop/ }).getByTestId('member-sources');
    expect(await sources.textContent()).toMatch(/^از میزبان در شبکهٔ محلی: [۰-۹٫٬]+ \S+ در [۰-۹]+ پرونده$/);
    expect(await officePage.getByTestId('network-blocks').getByRole('heading').textContent()).toBe('بلوک‌های مدل');
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
    await officePage.getByRole('listitem', { name: /^Laptop/ }).waitFor({ state: 'detached', timeout: 20_000 });
    expect(await officePage.getByTestId('client-count').textContent()).toBe(`0 of ${network.max_clients} clients`);
    expect(dialogs).toEqual(['Remove “Laptop” from the network? It stops running its part of the model at once.']);
    // The laptop's window says why it is no longer in the network.
    const left = laptopPage.getByTestId('left-network');
    await left.waitFor({ timeout: 20_000 });
    expect(readable(await left.textContent())).toBe(
      `This device is no longer in “${network.name}”. The network’s host removed this device.`,
    );

    await officePage.getByRole('button', { name: 'Stop hosting' }).click();
    await officePage.getByRole('heading', { name: 'Create a network' }).waitFor({ timeout: 20_000 });
    expect(dialogs).toHaveLength(2);
    expect((await office.state()).network).toBeNull();
  });
});
