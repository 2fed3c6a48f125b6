import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sha256, uploadForm } from '@meshwork/testkit/api/upload-kit';
import { registerAccount, subscribeToPro } from '@meshwork/testkit/api/accounts';
import { appearancesOf, recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import type { TestApp } from '@meshwork/testkit/api/test-app';
import { readGguf } from '../../desktop/src/pack/gguf';
import { GgmlType } from '../../desktop/src/pack/quant';
import { tinyLlamaGguf } from '@meshwork/testkit/desktop/tiny-llama';
import {
  type AdminModel,
  type AdminModelList,
  type AuthResponse,
  type DesktopRelease,
  ModelPackageManifest,
  RESUMABLE_THRESHOLD_BYTES,
  UPLOAD_LIMITS,
  uploadMessages,
  type UploadResponse,
} from '@meshwork/contracts';
import { ensureConsoleBuilt, localDate } from './console-kit';

const root = path.resolve(__dirname, '../..');
const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

/**
 * A file of `size` bytes on disk. Sparse (no bytes written) unless `data` is given, so a
 * 10 GiB model costs nothing: the browser still reads and hashes every byte of it.
 */
function fileOnDisk(dir: string, name: string, size: number, data?: Buffer): string {
  const file = path.join(dir, name);
  if (data) fs.writeFileSync(file, data);
  else {
    fs.closeSync(fs.openSync(file, 'w'));
    fs.truncateSync(file, size);
  }
  return file;
}

/**
 * AI Model Management in the staff console, in a real browser against the whole api with
 * real MinIO behind it: uploads in one request and part by part, access, export, delete,
 * the upload checks, desktop releases, and the staff gate.
 */
describe('staff console: AI models (real browser)', () => {
  let site: BrowserTest;
  let subject: TestApp;
  let base = '';
  let staff: AuthResponse;
  let customer: AuthResponse;
  let proCustomer: AuthResponse;
  let scratch = '';
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    ensureConsoleBuilt();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'console-models-'));
    // The installation built its Windows installer and could not build for Linux.
    const releases = path.join(scratch, 'releases');
    fs.mkdirSync(releases);
    const installer = fileOnDisk(releases, 'Meshwork-Desktop-v0.1.0.exe', 0, randomBytes(2048));
    fs.writeFileSync(
      path.join(releases, 'releases.json'),
      JSON.stringify({
        version: '0.1.0',
        files: [{ platform: 'windows', file: path.basename(installer), size: 2048, sha256: sha256(fs.readFileSync(installer)) }],
        skipped: [{ platform: 'linux', reason: 'dpkg-deb is not installed' }],
      }),
    );
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', STRIPE_SECRET_KEY: '', DESKTOP_RELEASES_DIR: releases });
    ({ subject, base } = site);
    const register = (name: string, isStaff = false) => registerAccount(subject.app, name, tag, isStaff);
    staff = await register('staff', true);
    customer = await register('carol');
    proCustomer = await register('paul');
    await subscribeToPro(base, proCustomer.tokens.access);
    // Past the first-visit onboarding, so the dashboard is not behind its modal.
    await fetch(`${base}/api/v1/users/preferences/`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${proCustomer.tokens.access}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ onboarding_completed: true, show_onboarding: false }),
    });
  }, 240_000);

  afterAll(async () => {
    await site?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });
  afterEach(() => site.closePages());

  /**
   * A browser signed in as the site would leave it (tokens in localStorage, set once before the
   * first page), recording what appears: toasts and the Access Denied screen last seconds.
   */
  async function signedInPage(session: AuthResponse): Promise<Page> {
    const page = await site.openPage(session, { viewport: { width: 1600, height: 1000 }, acceptDownloads: true });
    await recordAppearances(page);
    return page;
  }

  async function api<T>(method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
    const response = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { Authorization: `Bearer ${staff.tokens.access}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
  }

  const listedModels = async () => (await api<AdminModelList>('GET', '/models/admin/')).json.models;

  /** A model of two small files, uploaded straight to the api. */
  async function modelFromApi(name: string, plans: string[]): Promise<UploadResponse> {
    const files = [
      { name: 'weights.bin', data: randomBytes(50_000) },
      { name: 'config.json', data: Buffer.from('{"layers": 2}') },
    ];
    const form = uploadForm(
      {
        name,
        display_name: `Model ${name}`,
        description: 'Made by the test',
        version: '1.0.0',
        allowed_plans: JSON.stringify(plans),
        checksums: JSON.stringify(Object.fromEntries(files.map((f) => [f.name, sha256(f.data)]))),
      },
      files,
    );
    const response = await fetch(`${base}/api/v1/models/admin/upload/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${staff.tokens.access}` },
      body: form,
    });
    expect(response.status).toBe(201);
    return (await response.json()) as UploadResponse;
  }

  async function openModels(page: Page): Promise<void> {
    await page.goto(`${base}/admin/models`);
    await page.getByRole('tab', { name: 'Models', selected: true }).waitFor();
  }

  async function openUploadDialog(page: Page) {
    await page.getByRole('button', { name: 'Upload Model' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload AI Model' });
    await dialog.waitFor();
    return dialog;
  }

  const modelCard = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

  it('uploads a model of two files through the dialog, with checksums computed in the browser, shows its card and details, and a Pro subscriber’s dashboard lists it', async () => {
    const name = `tiny_${tag}`;
    const displayName = `Tiny LLM ${tag}`;
    const weights = randomBytes(200_000);
    const config = Buffer.from(JSON.stringify({ hidden_size: 64, layers: 2 }));
    const page = await signedInPage(staff);
    await openModels(page);
    const dialog = await openUploadDialog(page);

    // The spec's defaults: version 1.0.0, a three-row description.
    await expect(dialog.getByLabel('Version').inputValue()).resolves.toBe(UPLOAD_LIMITS.defaultVersion);
    await expect(dialog.getByLabel('Description').getAttribute('rows')).resolves.toBe('3');
    await dialog.getByText('internal identifier, lowercase, underscores allowed').waitFor();
    const submit = dialog.getByRole('button', { name: 'Upload Model' });
    await expect(submit.isDisabled()).resolves.toBe(true);

    await dialog.getByLabel('Model name').fill(name);
    await dialog.getByLabel('Display name').fill(displayName);
    await dialog.getByLabel('Description').fill('A very small model for tests');
    await dialog.getByLabel('Parameters (optional)').fill('7B');
    await dialog.getByLabel('Architecture (optional)').fill('Llama');
    await dialog.getByRole('checkbox', { name: 'Pro Plan' }).check();
    await dialog.locator('input[type=file]').setInputFiles([
      { name: 'model.onnx', mimeType: 'application/octet-stream', buffer: weights },
      { name: 'config.json', mimeType: 'application/json', buffer: config },
    ]);

    // Each file gets a green tick and the first 8 characters of its SHA-256.
    const files = dialog.getByRole('list', { name: 'Model Files' });
    await files
      .locator('[data-state=processed]', { hasText: 'model.onnx' })
      .getByText(`SHA-256 ${sha256(weights).slice(0, 8)}`)
      .waitFor();
    await files
      .locator('[data-state=processed]', { hasText: 'config.json' })
      .getByText(`SHA-256 ${sha256(config).slice(0, 8)}`)
      .waitFor();
    // The two files were added together: one toast for both.
    await waitForAppearance(page, '2 files processed successfully', { announced: true });
    expect(appearancesOf(page, 'model.onnx processed successfully')).toEqual([]);
    await dialog.getByTestId('upload-summary').getByText('2 files').waitFor();

    await submit.click();
    await waitForAppearance(page, `Model "${displayName}" uploaded successfully!`, { announced: true }, 30_000);
    await dialog.waitFor({ state: 'detached' });

    const card = modelCard(page, displayName);
    await card.waitFor();
    const shown = await card.innerText();
    expect(shown).toContain('Pro Plan');
    expect(shown).not.toContain('Free Plan');
    expect(shown).toContain('Active');
    expect(shown).toContain('7B');
    expect(shown).toContain(`${name} · v1.0.0`);

    const stored = (await listedModels()).find((model) => model.name === name);
    expect(stored).toMatchObject({ display_name: displayName, allowedPlans: ['pro'], status: 'active' });
    expect(Object.fromEntries(stored!.files.map((file) => [file.name, file.sha256]))).toEqual({
      'model.onnx': sha256(weights),
      'config.json': sha256(config),
    });

    await card.getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('dialog', { name: displayName });
    await details.waitFor();
    const detailText = await details.innerText();
    for (const text of ['Llama', 'A very small model for tests', stored!.fileName, 'Pro Plan', `SHA-256 ${sha256(weights).slice(0, 8)}…`]) {
      expect(detailText).toContain(text);
    }
    expect(detailText).toContain(`staff_${tag}`);
    await details.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'detached' });

    const dashboard = await signedInPage(proCustomer);
    await dashboard.goto(`${base}/dashboard`);
    await dashboard.getByRole('region', { name: 'Available Models' }).getByRole('listitem', { name: displayName }).waitFor();
  }, 120_000);

  it('packs a GGUF into 3 blocks with npm run model:pack’s entry point, uploads the package through the dialog with its parameters and architecture from model.json, and a Pro dashboard shows “3 blocks”', async () => {
    // A package as staff make one: model:pack's real entry point on a GGUF (a tiny random llama).
    const gguf = path.join(scratch, 'tiny.gguf');
    fs.writeFileSync(gguf, tinyLlamaGguf({ matrices: GgmlType.Q4_1, embedding: GgmlType.Q8_0 }));
    const out = path.join(scratch, 'package');
    const packed = execFileSync(
      process.execPath,
      ['-r', '@swc-node/register', 'desktop/src/pack/pack.main.ts', '--gguf', gguf, '--blocks', '3', '--out', out, '--name', `tiny-${tag}`],
      { cwd: root, encoding: 'utf8' },
    );
    expect(packed).toContain(`tiny-${tag}: 3 blocks`);
    const manifest = ModelPackageManifest.parse(JSON.parse(fs.readFileSync(path.join(out, 'model.json'), 'utf8')));
    const files = fs.readdirSync(out).sort();
    expect(files).toEqual([...[0, 1, 2].flatMap((i) => [`block-${i}.bin`, `block-${i}.onnx`]), 'model.json', 'tokenizer.json']);
    // The model's own count: every weight in the GGUF (its head shares the embedding), in thousands for this tiny one.
    const weights = [...(await readGguf(gguf)).tensors.values()].reduce((sum, t) => sum + t.dims.reduce((n, d) => n * d, 1), 0);
    expect(weights).toBeGreaterThan(1e5);
    expect(weights).toBeLessThan(1e6);
    const parameters = `${Number.parseFloat((weights / 1e3).toFixed(1))}K`;

    const name = `tiny_pkg_${tag}`;
    const displayName = `Tiny package ${tag}`;
    const page = await signedInPage(staff);
    await openModels(page);
    const dialog = await openUploadDialog(page);
    await dialog.getByLabel('Model name').fill(name);
    await dialog.getByLabel('Display name').fill(displayName);
    await dialog.getByLabel('Description').fill('Packed by model:pack in the test');
    await dialog.getByRole('checkbox', { name: 'Pro Plan' }).check();
    await dialog.locator('input[type=file]').setInputFiles(files.map((file) => path.join(out, file)));
    await dialog.getByTestId('upload-summary').getByText('8 files').waitFor();
    // Left empty by staff: model.json fills them.
    await page.waitForFunction(
      (expected) =>
        Array.from(document.querySelectorAll('label')).some(
          (label) =>
            label.textContent?.startsWith('Parameters') && (document.getElementById(label.htmlFor) as HTMLInputElement)?.value === expected,
        ),
      parameters,
    );
    await expect(dialog.getByLabel('Architecture (optional)').inputValue()).resolves.toBe('llama');
    for (const block of manifest.blocks) {
      await dialog
        .getByRole('list', { name: 'Model Files' })
        .locator('[data-state=processed]', { hasText: block.file })
        .getByText(`SHA-256 ${block.sha256.slice(0, 8)}`)
        .waitFor();
    }
    // One toast for the eight files, not one each that outlives the dialog.
    await waitForAppearance(page, '8 files processed successfully', { announced: true });
    expect(appearancesOf(page, 'processed successfully').every((seen) => seen.text.includes('8 files'))).toBe(true);
    await dialog.getByRole('button', { name: 'Upload Model' }).click();
    await waitForAppearance(page, `Model "${displayName}" uploaded successfully!`, { announced: true }, 60_000);

    // The card names the package, not the first file's extension, and its parameter count.
    const card = modelCard(page, displayName);
    await card.getByText('Meshwork model package').waitFor();
    const shown = await card.innerText();
    expect(shown).toContain(parameters);
    expect(shown).not.toContain('BIN');

    const stored = (await listedModels()).find((model) => model.name === name)!;
    expect(stored.metadata).toMatchObject({ parameters, architecture: 'llama' });
    expect(Object.fromEntries(stored.files.map((f) => [f.name, f.sha256]))).toEqual(
      Object.fromEntries(files.map((file) => [file, sha256(fs.readFileSync(path.join(out, file)))])),
    );

    const dashboard = await signedInPage(proCustomer);
    await dashboard.goto(`${base}/dashboard`);
    const item = dashboard.getByRole('region', { name: 'Available Models' }).getByRole('listitem', { name: displayName });
    await item.getByText('3 blocks').waitFor();
  }, 180_000);

  it('changes access in the matrix, exports the access CSV and deletes a model after the exact confirmation', async () => {
    const name = `matrix_${tag}`;
    const displayName = `Model ${name}`;
    const uploaded = await modelFromApi(name, ['free']);
    const page = await signedInPage(staff);
    await openModels(page);
    const card = modelCard(page, displayName);
    await card.getByText('Free Plan').waitFor();

    await page.getByRole('button', { name: 'Manage Access' }).click();
    const matrix = page.getByRole('dialog', { name: 'Model Access Matrix' });
    await matrix.getByRole('checkbox', { name: `${displayName}: Free Plan` }).uncheck();
    await matrix.getByRole('checkbox', { name: `${displayName}: Pro Plan` }).check();
    await matrix.getByRole('checkbox', { name: `${displayName}: Enterprise Plan` }).check();
    await matrix.getByRole('button', { name: 'Save Changes' }).click();
    await waitForAppearance(page, 'Model access permissions updated', { announced: true });
    await matrix.waitFor({ state: 'detached' });
    await card.getByText('Enterprise Plan').waitFor();
    expect(await card.innerText()).not.toContain('Free Plan');
    const afterMatrix = (await api<AdminModel>('GET', `/models/admin/${uploaded.model_id}/`)).json;
    expect([...afterMatrix.allowedPlans].sort()).toEqual(['enterprise', 'pro']);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe(`model-access-${localDate()}.csv`);
    const lines = fs.readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(lines[0]).toBe('Model Name,Version,Free Plan,Pro Plan,Enterprise Plan');
    expect(lines).toContain(`${displayName},1.0.0,No,Yes,Yes`);
    expect(lines).toHaveLength((await listedModels()).length + 1);
    await waitForAppearance(page, 'Model access data exported successfully', { announced: true });

    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: `Delete ${displayName}?` });
    await confirm
      .getByText(
        `Are you sure you want to delete "${displayName}"? This action cannot be undone and will remove the model file from the server.`,
        { exact: true },
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await waitForAppearance(page, 'Model deleted successfully', { announced: true });
    await card.waitFor({ state: 'detached' });
    expect((await listedModels()).some((model) => model.id === uploaded.model_id)).toBe(false);
  }, 120_000);

  it('gives a model to a plan from the plan’s card: the model’s own access changes', async () => {
    const name = `plan_${tag}`;
    const uploaded = await modelFromApi(name, ['pro']);
    const page = await signedInPage(staff);
    await page.goto(`${base}/admin/plans`);
    const freeCard = page.getByRole('article', { name: 'Free', exact: true });
    await freeCard.getByRole('button', { name: 'Edit' }).click();
    await freeCard.getByRole('checkbox', { name, exact: true }).check();
    await freeCard.getByRole('button', { name: 'Save' }).click();
    await waitForAppearance(page, 'Plan updated successfully', { announced: true });
    await freeCard.getByText(name, { exact: true }).waitFor();
    const model = (await api<AdminModel>('GET', `/models/admin/${uploaded.model_id}/`)).json;
    expect([...model.allowedPlans].sort()).toEqual(['free', 'pro']);

    await openModels(page);
    await modelCard(page, `Model ${name}`).getByText('Free Plan').waitFor();
  }, 120_000);

  it('refuses files against the limits as they are added, and lists the submit checks in the spec’s order', async () => {
    const huge = fileOnDisk(scratch, 'huge.bin', 10 * GiB + 1);
    // Big enough that its checksum is still being computed when the form is submitted.
    const big = fileOnDisk(scratch, 'big.safetensors', 8 * GiB);
    const page = await signedInPage(staff);
    await openModels(page);
    const dialog = await openUploadDialog(page);
    const input = dialog.locator('input[type=file]');
    const rejected = dialog.getByTestId('rejected-files');

    await input.setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
    await rejected.getByText(`notes.txt: ${uploadMessages.fileType('.txt')}`, { exact: true }).waitFor();
    await input.setInputFiles(huge);
    await rejected.getByText(`huge.bin: ${uploadMessages.fileTooLarge('10 GB')}`, { exact: true }).waitFor();
    await input.setInputFiles(big);
    await dialog.locator('[data-state=processing]', { hasText: 'big.safetensors' }).waitFor();
    await input.setInputFiles(big);
    await rejected.getByText(`big.safetensors: ${uploadMessages.duplicate}`, { exact: true }).waitFor();
    await dialog.getByTestId('upload-summary').getByText('1 file, 8 GB in all').waitFor();

    await dialog.getByLabel('Version').fill('  ');
    await dialog.getByRole('button', { name: 'Upload Model' }).click();
    await waitForAppearance(page, 'Please fix validation errors before submitting', { announced: true });
    const errors = dialog.getByTestId('upload-errors').getByRole('listitem');
    await expect(errors.allInnerTexts()).resolves.toEqual([
      uploadMessages.nameRequired,
      uploadMessages.displayNameRequired,
      uploadMessages.versionRequired,
      uploadMessages.planRequired,
      uploadMessages.missingChecksums(['big.safetensors']),
    ]);

    // Removing the file drops it (and stops its hashing) and clears the list of errors.
    await dialog.getByRole('button', { name: 'Remove big.safetensors' }).click();
    await waitForAppearance(page, 'big.safetensors removed', { announced: true });
    await dialog.getByTestId('upload-errors').waitFor({ state: 'detached' });
    await expect(dialog.getByRole('button', { name: 'Upload Model' }).isDisabled()).resolves.toBe(true);
  }, 120_000);

  it('uploads a big model part by part, resuming after a reload and retrying a part lost to a network drop', async () => {
    const name = `big_${tag}`;
    const displayName = `Big model ${tag}`;
    const data = randomBytes(RESUMABLE_THRESHOLD_BYTES + 6 * MiB);
    const weights = fileOnDisk(scratch, 'weights.bin', data.length, data);
    const page = await signedInPage(staff);

    /** Fills the form and picks the file; resolves once its checksum is computed. */
    const fillIn = async () => {
      const dialog = await openUploadDialog(page);
      await dialog.getByLabel('Model name').fill(name);
      await dialog.getByLabel('Display name').fill(displayName);
      await dialog.getByRole('checkbox', { name: 'Enterprise Plan' }).check();
      await dialog.locator('input[type=file]').setInputFiles(weights);
      await dialog
        .locator('[data-state=processed]', { hasText: 'weights.bin' })
        .getByText(`SHA-256 ${sha256(data).slice(0, 8)}`)
        .waitFor();
      return dialog;
    };
    const partOf = (url: string) => Number(new URL(url).searchParams.get('partNumber'));

    // First visit: parts 1 and 2 reach storage; every other part is lost until the page is reloaded.
    // After the reload, the first try of part 3 is lost too (a network drop) and is tried again.
    let phase: 'first' | 'reloading' | 'second' = 'first';
    const sent = { first: [] as number[], second: [] as number[] };
    let dropped = false;
    await page.route(
      (url) => url.searchParams.has('partNumber'),
      async (route) => {
        const part = partOf(route.request().url());
        if (phase === 'reloading' || (phase === 'first' && part > 2)) return route.abort('internetdisconnected');
        if (phase === 'second' && part === 3 && !dropped) {
          dropped = true;
          return route.abort('internetdisconnected');
        }
        sent[phase].push(part);
        await route.continue();
      },
    );
    const stored = (part: number) =>
      page.waitForResponse((response) => response.request().method() === 'PUT' && partOf(response.request().url()) === part, {
        timeout: 60_000,
      });
    await openModels(page);
    let dialog = await fillIn();
    const firstParts = Promise.all([stored(1), stored(2)]);
    await dialog.getByRole('button', { name: 'Upload Model' }).click();
    await firstParts;
    await dialog.getByText(/^Uploading: [1-9]\d*%$/).waitFor();

    phase = 'reloading';
    await page.reload();
    await page.getByRole('tab', { name: 'Models', selected: true }).waitFor();
    dialog = await fillIn();
    await dialog.getByText('An interrupted upload of these files will carry on where it stopped.').waitFor();
    phase = 'second';
    await dialog.getByRole('button', { name: 'Upload Model' }).click();
    await waitForAppearance(page, `Model "${displayName}" uploaded successfully!`, { announced: true }, 60_000);

    expect(sent.first.sort()).toEqual([1, 2]);
    expect(dropped).toBe(true);
    expect(sent.second.sort()).toEqual([3, 4, 5]);
    await modelCard(page, displayName).getByText('Enterprise Plan').waitFor();
    const model = (await listedModels()).find((candidate) => candidate.name === name);
    expect(model).toMatchObject({ status: 'active', fileSize: data.length, allowedPlans: ['enterprise'], uploadedBy: `staff_${tag}` });
    expect(model!.files[0]!.sha256).toBe(sha256(data));
    // A finished upload is forgotten: the same files would start a new one.
    await expect(page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('modelUpload')))).resolves.toEqual([]);
  }, 180_000);

  it('says what customers get per platform, takes a file naming its platform, publishes it in one step and withdraws it', async () => {
    const version = `7.${Math.floor(Math.random() * 1000)}.1`;
    const release = async () => (await api<DesktopRelease[]>('GET', '/models/admin/releases/')).json.find((r) => r.version === version);
    const page = await signedInPage(staff);
    await openModels(page);
    await page.getByRole('tab', { name: 'Desktop releases' }).click();

    // Before any staff release: the installation's own Windows build, and nothing for Linux, with the build's reason.
    const now = page.getByRole('region', { name: 'What customers get now' });
    const windows = now.getByRole('region', { name: 'Windows' });
    const linux = now.getByRole('region', { name: 'Linux' });
    await windows.getByText('Windows installer: version 0.1.0, built by this installation').waitFor();
    await linux.getByText('Nothing: customers on Linux are offered no download.').waitFor();
    await linux.getByText('This installation could not build it: dpkg-deb is not installed').waitFor();
    await now.getByText('macOS: not yet available.').waitFor();
    // The built-in release is listed, read-only.
    const builtIn = page.locator('tbody tr', { hasText: 'Built by this installation' });
    await builtIn.getByText('Meshwork-Desktop-v0.1.0.exe', { exact: false }).waitFor();
    expect(await builtIn.getByRole('button').count()).toBe(0);

    const form = page.getByRole('form', { name: 'New release' });
    await form.getByLabel('Version').fill(version);
    await form.getByLabel('Release notes').fill('Faster model loading');
    await form.getByTestId('release-file-input').setInputFiles({
      name: 'Meshwork-Setup.deb',
      mimeType: 'application/vnd.debian.binary-package',
      buffer: randomBytes(300_000),
    });
    // The extension chose the platform; a platform it does not suit is refused before anything is sent.
    expect(await form.getByLabel('Platform').inputValue()).toBe('linux');
    await form.getByLabel('Platform').selectOption('windows');
    await form.getByRole('alert').getByText('A Windows release must be one of: .exe, .zip.').waitFor();
    expect(await form.getByRole('button', { name: 'Upload release' }).isDisabled()).toBe(true);
    await form.getByLabel('Platform').selectOption('linux');
    await form.getByLabel('Publish now').check();
    await form.getByRole('button', { name: 'Upload release' }).click();
    await waitForAppearance(page, `Desktop release ${version} uploaded and published`, { announced: true });

    // Live at once, for Linux only: Windows customers still get the installation's own installer.
    await linux.getByText(`Linux (.deb): version ${version}, Meshwork-Setup.deb`).waitFor();
    await windows.getByText('Windows installer: version 0.1.0, built by this installation').waitFor();
    await expect(release()).resolves.toMatchObject({
      isStable: true,
      isActive: true,
      releaseNotes: 'Faster model loading',
      files: [expect.objectContaining({ platform: 'linux', format: 'deb', current: true })],
    });
    const row = page.locator('tbody tr', { hasText: version });
    await row.getByText('Customers get this file now').waitFor();

    // Withdrawn: Linux has nothing again; published again in one step.
    await row.getByRole('button', { name: 'Withdraw' }).click();
    await linux.getByText('Nothing: customers on Linux are offered no download.').waitFor();
    await expect(release()).resolves.toMatchObject({ isStable: true, isActive: false });
    await row.getByRole('button', { name: 'Publish' }).click();
    await linux.getByText(`Linux (.deb): version ${version}, Meshwork-Setup.deb`).waitFor();
    await expect(release()).resolves.toMatchObject({ isStable: true, isActive: true });
  }, 120_000);

  it('turns a customer away from the models screen without calling the models api', async () => {
    const page = await signedInPage(customer);
    const adminCalls: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/v1\/(admin-panel\/models|models\/admin)/.test(request.url())) adminCalls.push(request.url());
    });
    await page.goto(`${base}/admin/models`);
    // The Access Denied screen and its toast stay 2.5 s before /dashboard replaces them: their records are waited on.
    await waitForAppearance(page, 'Access Denied', { announced: true });
    await waitForAppearance(page, 'Access denied. Admin privileges required.', { announced: true });
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(adminCalls).toEqual([]);
  });
});
