/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issue 33, "Must show": the real Gemma 3 270M (a base model, no chat template) packed as
 * `model:pack` does, uploaded by staff through the console's upload dialog in real Chromium
 * (checksums computed in the browser, the parts sent to storage), then downloaded by a Pro
 * customer's host and asked through the host's OpenAI-compatible api. The answer is our engine's
 * own greedy continuation of the prompt, computed in this process from the same package.
 */
/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import OpenAI from 'openai';
import type { AuthResponse, HostModel, HostState } from '@meshwork/contracts';
import { registerAccount, subscribeToPro } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { packGemma3 } from '@meshwork/testkit/desktop/gemma3-package';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';
import { ChatEngine } from '../../desktop/src/runtime/inference/chat-engine';
import { ensureConsoleBuilt } from './console-kit';

/** Gemma 3 270M continues "The capital of France is" with " the capital of the country of France.": this one it knows. */
const PROMPT = 'The Eiffel Tower is in the city of';
/** Greedy: the most likely token each step, no repeat penalty, so two runs of the engine must agree. */
const GREEDY = { temperature: 0, repeatPenalty: 1, maxTokens: 8 };
const DISPLAY_NAME = 'Gemma 3 270M';

describe('a Gemma 3 package uploaded in the console answers through a customer’s host', () => {
  let work = '';
  let files: string[] = [];
  let expected = '';
  let site: BrowserTest;
  let staff: AuthResponse;
  let customer: AuthResponse;
  let host: TestHost | undefined;
  const name = `gemma3_${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    ensureConsoleBuilt();
    work = await mkdtemp(join(tmpdir(), 'gemma3-console-'));
    // The pack and the reference run beside the site's start: both take seconds.
    const reference = (async () => {
      files = await packGemma3(join(work, 'package'));
      // Our engine run here on the package before it leaves, released before the host loads its copy.
      const engine = await ChatEngine.load(dirname(files[0]!));
      try {
        expected = (await engine.complete(await engine.text(PROMPT), GREEDY, () => undefined, new AbortController().signal)).text;
      } finally {
        await engine.release();
        await engine.tokenizer.close();
      }
    })();
    const accounts = (async () => {
      site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '' });
      const tag = randomUUID().slice(0, 6);
      staff = await registerAccount(site.subject.app, 'staff', tag, true);
      customer = await registerAccount(site.subject.app, 'gina', tag);
      await subscribeToPro(site.base, customer.tokens.access);
    })();
    await Promise.all([reference, accounts]);
    // Room for the console's build when its sources changed.
  }, 240_000);

  afterAll(async () => {
    await host?.close();
    await site?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the engine’s own greedy continuation of the prompt names the city', () => {
    expect(expected).toMatch(/^ Paris\b/);
  });

  it('staff upload the package through the dialog for the Pro plan', async () => {
    const page = await site.openPage(staff, { viewport: { width: 1600, height: 1000 } });
    await recordAppearances(page);
    await page.goto(`${site.base}/admin/models`);
    await page.getByRole('button', { name: 'Upload Model' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload AI Model' });
    await dialog.getByLabel('Model name').fill(name);
    await dialog.getByLabel('Display name').fill(DISPLAY_NAME);
    await dialog.getByRole('checkbox', { name: 'Pro Plan' }).check();
    await dialog.locator('input[type=file]').setInputFiles(files);
    // Every file hashed in the browser before the form may be sent.
    const list = dialog.getByRole('list', { name: 'Model Files' });
    for (const file of files) await list.locator('[data-state=processed]', { hasText: basename(file) }).waitFor({ timeout: 60_000 });
    await expect(dialog.getByLabel('Architecture (optional)').inputValue()).resolves.toBe('gemma3');
    await dialog.getByRole('button', { name: 'Upload Model' }).click();
    await waitForAppearance(page, `Model "${DISPLAY_NAME}" uploaded successfully!`, { announced: true }, 120_000);
  }, 180_000);

  it('the customer’s host signs in, sees the model in its plan and downloads it', async () => {
    host = await startHost(site.base);
    const code = ((await host.call('POST', '/host/sign-in/device')).body.account as { user_code: string }).user_code;
    const approved = await fetch(`${site.base}/api/v1/devices/activate/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${customer.tokens.access}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ user_code: code, name: 'Gemma host', approve: true }),
    });
    expect(approved.status).toBe(200);
    // Named as the catalog names it (the host learns the display name after the plan's list).
    const offered = await host.until(
      (s) => s.models.some((m) => m.name === name && m.display_name === DISPLAY_NAME),
      30_000,
      'the model named',
    );
    expect(offered.models.find((m) => m.name === name)).toMatchObject({ allowed: true, status: 'not-downloaded' });

    const mine = (state: HostState) => state.models.find((m) => m.name === name);
    const downloading: HostModel[] = [];
    host.host.on('state', (state) => {
      const model = mine(state);
      if (model?.status === 'downloading') downloading.push(model);
    });
    expect((await host.call('POST', '/host/models/download', { name })).status).toBe(200);
    const ended = await host.until((s) => ['installed', 'failed'].includes(mine(s)?.status ?? ''), 120_000, 'the download to end');
    expect(mine(ended)).toMatchObject({ status: 'installed', error: null, activity: null });
    // While it downloaded, the host counted the package's bytes: every file, whole.
    const size = (await Promise.all(files.map((file) => stat(file)))).reduce((sum, s) => sum + s.size, 0);
    expect(downloading.length).toBeGreaterThan(0);
    expect(downloading.at(-1)).toMatchObject({ bytes_done: size, bytes_total: size });
  }, 180_000);

  it('answers /v1/completions with the engine’s own continuation, whole and streamed, and chat with the same plain prompt, saying so', async () => {
    const key = (await host!.call('POST', '/host/api-keys', { name: 'Gemma test' })).body.key as string;
    const client = new OpenAI({ apiKey: key, baseURL: host!.openaiBase, maxRetries: 0, timeout: 60_000 });
    const greedy = { model: name, temperature: 0, max_tokens: GREEDY.maxTokens, repeat_penalty: 1 };

    const whole = await client.completions.create({ ...greedy, prompt: PROMPT });
    expect(whole.object).toBe('text_completion');
    expect(whole.choices[0]).toMatchObject({ text: expected, finish_reason: 'length' });
    const pieces: string[] = [];
    for await (const chunk of await client.completions.create({ ...greedy, prompt: PROMPT, stream: true }))
      pieces.push(chunk.choices[0]?.text ?? '');
    expect(pieces.join('')).toBe(expected);
    await expect(client.completions.create({ ...greedy, prompt: PROMPT, echo: true })).rejects.toMatchObject({
      status: 400,
      param: 'echo',
    });

    // No chat template: one user message is written as its plain text, so the answer is the same, and the header says so.
    const { data: chat, response } = await client.chat.completions
      .create({ ...greedy, messages: [{ role: 'user', content: PROMPT }] })
      .withResponse();
    expect(response.headers.get('meshwork-chat-format')).toBe('plain');
    expect(chat.choices[0]!.message.content).toBe(expected);
  }, 120_000);
});
