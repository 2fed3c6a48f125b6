/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issue 30, sections 3 and 5: the window in real Chromium, against the real api and the real
 * SmolLM2 package `model:pack` makes by default. The models screen names the model as the
 * catalog does and says truthfully what a download is doing; the playground starts from the
 * model's defaults, and its temperature and token limit change the next answer.
 */
/// <reference lib="dom" />
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { HostModel } from '@meshwork/contracts';
import { launchBrowser } from '@meshwork/testkit/browser';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';
import { uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';

/** The display name `uploadSmolLM2` gives the model in the catalog. */
const DISPLAY_NAME = 'SmolLM2 135M Instruct';

/**
 * A slow link to storage, and a stall on it. The host runs in this process, so its fetch of a
 * signed storage link is wrapped: the bytes are storage's own, passed on at `bytesPerSecond`,
 * and held once `stallAfter` bytes have gone until `resume()` (or the host gives up the
 * request). A real slow network is out of reach on a shared loopback; every other request goes
 * as it is.
 */
function slowStorage(bytesPerSecond: number) {
  const real = globalThis.fetch;
  let stallAfter = Number.POSITIVE_INFINITY;
  let resume: () => void = () => undefined;
  let stalled = new Promise<void>((resolve) => (resume = resolve));
  let delivered = 0;
  globalThis.fetch = async (input, init) => {
    const response = await real(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!/[?&](X-Amz-Signature|sig)=/.test(url) || !response.body) return response;
    const reader = response.body.getReader();
    const started = Date.now();
    let sent = 0;
    const gaveUp = new Promise<void>((resolve) => init?.signal?.addEventListener('abort', () => resolve(), { once: true }));
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        if (delivered + value.length > stallAfter) await Promise.race([stalled, gaveUp]);
        if (init?.signal?.aborted) return controller.error(init.signal.reason);
        sent += value.length;
        delivered += value.length;
        const due = started + (sent / bytesPerSecond) * 1000;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    /** Holds the bytes from `bytes` (counted over every download from now) on. */
    stallAt(bytes: number) {
      delivered = 0;
      stallAfter = bytes;
      stalled = new Promise<void>((resolve) => (resume = resolve));
    },
    resume() {
      stallAfter = Number.POSITIVE_INFINITY;
      resume();
    },
    restore() {
      globalThis.fetch = real;
    },
  };
}

describe('the window: the model’s name, its download, and the playground’s controls', () => {
  let world: NetworksWorld;
  let subject: TestHost;
  let browser: Browser;
  let page: Page;
  let model: { name: string; id: string };
  const link = slowStorage(25_000_000);

  beforeAll(async () => {
    world = await networksWorld();
    model = await uploadSmolLM2(world, ['pro']);
    const owner = await world.customer('pro');
    subject = await startHost(world.base);
    const code = ((await subject.call('POST', '/host/sign-in/device')).body.account as { user_code: string }).user_code;
    await owner.post('/devices/activate/', { user_code: code, name: 'Playground host', approve: true }).expect(200);
    await subject.until((s) => s.models.some((m) => m.name === model.name && m.display_name === DISPLAY_NAME), 20_000, 'the model named');
    browser = await launchBrowser();
    page = await browser.newPage();
    await openModels();
  }, 300_000);

  afterAll(async () => {
    link.restore();
    await browser?.close();
    await subject?.close();
    await world?.close();
  });

  async function openModels() {
    await page.goto(subject.control.windowUrl());
    await page.getByRole('button', { name: 'Models' }).click();
  }
  const row = () => page.getByRole('listitem', { name: DISPLAY_NAME });
  const progressLine = () => row().getByTestId('model-progress');

  it('names the model as the catalog does, never by its package name', async () => {
    await row().getByTestId('model-status').filter({ hasText: 'Not downloaded' }).waitFor();
    expect(await row().textContent()).not.toContain(model.name);
  });

  it('while bytes flow, shows the speed and the time left; stalled, says it waits for data and shows no speed', async () => {
    link.stallAt(60_000_000);
    await row().getByRole('button', { name: 'Download' }).click();
    await progressLine()
      .filter({ hasText: /^Downloading · .+ of .+ · .+\/s · .+ left · \d+%$/ })
      .waitFor({ timeout: 30_000 });
    await progressLine()
      .filter({ hasText: /^Waiting for data · .+ of .+ · \d+%$/ })
      .waitFor({ timeout: 30_000 });
    expect(await progressLine().textContent()).not.toMatch(/\/s|left/);
  }, 60_000);

  it('a download resumed after a restart first checks the part it holds, then downloads the rest', async () => {
    // The host stops mid-download; started again, it is asked to download once more.
    const { dataDir, fingerprint } = subject;
    await subject.close({ keepData: true });
    link.resume();
    await rm(join(dataDir, 'models', 'downloads.json'));
    subject = await startHost(world.base, { dataDir, fingerprint });
    await subject.until((s) => s.models.some((m) => m.name === model.name), 20_000, 'the model in the plan');
    const seen: Pick<HostModel, 'activity' | 'bytes_per_second'>[] = [];
    subject.host.on('state', (state) => {
      const mine = state.models.find((m) => m.name === model.name);
      if (mine?.activity) seen.push({ activity: mine.activity, bytes_per_second: mine.bytes_per_second });
    });
    await openModels();
    await row().getByRole('button', { name: 'Download' }).click();
    await row().getByTestId('model-status').filter({ hasText: 'Installed' }).waitFor({ timeout: 120_000 });
    // Files already whole are only checked; the one cut short is checked, then continued.
    const activities = seen.map((s) => s.activity).filter((a, i, all) => a !== all[i - 1]);
    expect(activities[0]).toBe('waiting');
    expect(activities.at(-1)).toBe('installing');
    expect(activities.join(' ')).toMatch(/verifying downloading/);
    expect(seen.filter((s) => s.activity === 'verifying').every((s) => s.bytes_per_second === 0)).toBe(true);
    expect(await row().getByTestId('model-progress').count()).toBe(0);
  }, 150_000);

  it('the playground starts from the model’s defaults: temperature 0.7 and 512 tokens', async () => {
    await page.getByRole('button', { name: 'Chat' }).click();
    expect(await page.getByLabel('Model').locator('option:checked').textContent()).toBe(DISPLAY_NAME);
    expect(await page.getByLabel('Temperature').inputValue()).toBe('0.7');
    expect(await page.getByLabel('Max tokens').inputValue()).toBe('512');
  });

  it('a token limit of 3 cuts the answer after three tokens; temperature 0 gives the model’s own answer', async () => {
    await page.getByLabel('Temperature').fill('0');
    await page.getByLabel('Max tokens').fill('3');
    await ask(page, 'What is the capital of France?');
    expect(await lastAnswer(page)).toBe('The capital of');

    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByLabel('Max tokens').fill('512');
    await ask(page, 'What is the capital of France?');
    expect(await lastAnswer(page)).toBe('The capital of France is Paris.');
  }, 120_000);

  it('refuses a token limit below 1 before sending, and Stop ends a long answer where it is', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByLabel('Max tokens').fill('0');
    await page.getByLabel('Message').fill('Write a very long story about a dragon.');
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await page.getByLabel('Max tokens').evaluate((input: HTMLInputElement) => input.validity.rangeUnderflow)).toBe(true);
    expect(await page.locator('li[data-role="assistant"]').count()).toBe(0);

    await page.getByLabel('Max tokens').fill('512');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.locator('li[data-role="assistant"]').getByTestId('message-text');
    await answer.filter({ hasText: /\S+ \S+ \S+ \S+/ }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    const stopped = await answer.textContent();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await answer.textContent()).toBe(stopped);
    expect(stopped!.split(' ').length).toBeLessThan(300);
  }, 120_000);
});

/** Sends a message and waits until its answer is whole (an answer has begun, and Send is back). */
async function ask(page: Page, text: string): Promise<void> {
  const answers = page.locator('li[data-role="assistant"]');
  const before = await answers.count();
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await answers.nth(before).waitFor();
  await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 90_000 });
}

async function lastAnswer(page: Page): Promise<string | null> {
  return page.locator('li[data-role="assistant"]').last().getByTestId('message-text').textContent();
}
