/**
 * Issue 14, section 7: the release a customer installs. `desktop/scripts/package.mjs` builds the
 * Linux archive; staff upload it as a desktop release; a customer downloads it from the site,
 * unpacks it into an empty directory and runs it with an empty environment (no Node, no PATH):
 * it signs in, downloads the plan's model and answers with it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { type CreatedHostApiKey, HostState } from '@meshwork/contracts';
import { TEST_PASSWORD } from '../../api/src/testing/accounts';
import { networksWorld, type NetworksWorld } from '../../api/src/networks/testing/network-kit';
import { CAPITAL_OF_FRANCE, uploadSmolLM2 } from '../src/runtime/testing/smollm2-upload';

const root = resolve(__dirname, '../..');

/** The lines the runtime prints at start: where its window and its OpenAI api are. */
function announced(child: ChildProcess): Promise<{ ui: string; openai: string }> {
  return new Promise((done, fail) => {
    const seen: Record<string, string> = {};
    const output: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const [, kind, url] = /^meshwork-host (ui|openai-api) (\S+)$/.exec(line) ?? [];
      if (kind) seen[kind] = url!;
      if (seen.ui && seen['openai-api']) done({ ui: seen.ui, openai: seen['openai-api'] });
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) => fail(new Error(`the packaged host exited (${code}) before starting:\n${output.join('\n')}`)));
  });
}

describe('the Linux release archive', () => {
  let world: NetworksWorld;
  let work: string;
  let host: ChildProcess | undefined;

  beforeAll(async () => {
    world = await networksWorld();
    work = await mkdtemp(join(tmpdir(), 'release-archive-'));
  }, 60_000);

  afterAll(async () => {
    if (host && host.exitCode === null) {
      host.kill('SIGKILL');
      await new Promise((done) => host!.once('exit', done));
    }
    await world?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is published by staff, downloaded from the site, and runs from an empty directory with nothing installed', async () => {
    // `npm test` built the runtime and the window; the script packs them.
    execFileSync(process.execPath, [join(root, 'desktop/scripts/package.mjs'), '--out', join(work, 'built')], { cwd: root });
    const [archiveName] = await readdir(join(work, 'built'));
    expect(archiveName).toMatch(/^meshwork-host-\d+\.\d+\.\d+-linux-x64\.tar\.gz$/);

    const version = `3.${Math.floor(Math.random() * 1000)}.0`;
    const form = new FormData();
    form.append('version', version);
    form.append('release_notes', 'Linux archive');
    form.append('file', await openAsBlob(join(work, 'built', archiveName!)), archiveName);
    await world.staff('POST', '/models/admin/releases/', form);
    await world.staff('PATCH', `/models/admin/releases/${version}/`, { is_stable: true, is_active: true });

    const model = await uploadSmolLM2(world, ['pro']);
    const customer = await world.customer('pro');
    const info = (await customer.get('/downloads/desktop-app-info/').expect(200)).body as { download_url: string };
    const download = await fetch(`${world.base}${info.download_url}`, { headers: { Authorization: `Bearer ${customer.token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="Meshwork-Desktop-v${version}.tar.gz"`);
    const installDir = join(work, 'install');
    await mkdir(installDir);
    const downloaded = join(work, `Meshwork-Desktop-v${version}.tar.gz`);
    await writeFile(downloaded, Buffer.from(await download.arrayBuffer()));
    execFileSync('tar', ['-xzf', downloaded, '-C', installDir]);
    const [unpacked] = await readdir(installDir);

    // No PATH, no HOME, no Node: only what the archive holds.
    host = spawn(
      join(installDir, unpacked!, 'meshwork-host'),
      ['--data-dir', join(work, 'data'), '--api', world.base, '--ui-port', '0', '--api-address', '127.0.0.1', '--api-port', '0'],
      { env: {}, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const { ui, openai } = await announced(host);

    const launch = await fetch(ui, { redirect: 'manual' });
    const origin = new URL(ui).origin;
    const cookie = launch.headers.get('set-cookie')!.split(';')[0]!;
    const call = async <T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${origin}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Cookie: cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json', Origin: origin }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as T;
    };
    await call('/host/sign-in/password', { email: customer.email, password: TEST_PASSWORD });
    const until = async (match: (state: HostState) => boolean, what: string) => {
      const deadline = Date.now() + 90_000;
      while (!match(HostState.parse(await call('/host/state')))) {
        if (Date.now() > deadline) throw new Error(`the packaged host never showed ${what}`);
        await new Promise((done) => setTimeout(done, 200));
      }
    };
    await until((s) => s.account.status === 'signed-in' && s.entitlements?.plan.slug === 'pro', 'the Pro plan');
    await call('/host/models/download', { name: model.name });
    await until((s) => s.models.some((m) => m.name === model.name && m.status === 'installed'), 'the model installed');

    // The bundled onnxruntime answers through the bundled Node.
    const { key } = await call<CreatedHostApiKey>('/host/api-keys', { name: 'Release test' });
    const answer = await fetch(`${openai.replace('0.0.0.0', '127.0.0.1')}/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: model.name, messages: CAPITAL_OF_FRANCE, temperature: 0 }),
    });
    expect(((await answer.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(
      'The capital of France is Paris.',
    );

    host.kill('SIGTERM');
    expect(await new Promise((done) => host!.once('exit', done))).toBe(0);
  }, 300_000);
});
