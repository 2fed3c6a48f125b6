/**
 * Issue 30, sections 1 and 2: the Linux releases a site serves. `desktop/scripts/package.mjs
 * --platform linux --origin <site>` builds the .tar.gz and the .deb and indexes them in
 * releases.json; the .deb, unpacked into an empty root, runs from its desktop entry's command;
 * and the archive goes the whole way (issue 14, section 7): staff publish it, a customer
 * downloads it from the site, unpacks it into an empty directory and runs it with an empty
 * environment (no Node, no PATH): it signs in, downloads the plan's model and answers with it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, openAsBlob, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type CreatedHostApiKey, HostState } from '@meshwork/contracts';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { CAPITAL_OF_FRANCE, uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';
import { buildReleases, desktopVersion, packageCommand, pinnedNode, type ReleasesIndex, root, runTool } from './testing/release-build';

/** Nothing listens there: the apps are only built for it, never sent to it. */
const ORIGIN = 'http://127.0.0.1:9';
const TOP = `meshwork-host-${desktopVersion}-linux-x64`;
const ARCHIVE = `Meshwork-Desktop-v${desktopVersion}.tar.gz`;
const DEB = `Meshwork-Desktop-v${desktopVersion}.deb`;

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

/** `releasesUpToDate()` of the build script, asked as `npm start` asks it. */
async function upToDate(out: string, origin: string, platforms: string[]): Promise<boolean> {
  const script =
    `import { releasesUpToDate } from ${JSON.stringify(join(root, 'desktop/scripts/release/build-releases.mjs'))};` +
    `console.log(releasesUpToDate(${JSON.stringify({ out, origin, platforms })}));`;
  return (await runTool(pinnedNode, ['--input-type=module', '-e', script])).trim() === 'true';
}

describe('the Linux releases', () => {
  let work: string;
  let built: string;
  let index: ReleasesIndex;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'release-linux-'));
    built = join(work, 'built');
    index = await buildReleases(built, 'linux', ORIGIN);
  }, 420_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('are indexed in releases.json with their sizes, hashes, the origin and a fingerprint of their sources', async () => {
    expect(index).toMatchObject({ version: desktopVersion, origin: ORIGIN, skipped: [] });
    expect(index.sources).toMatch(/^[0-9a-f]{64}$/);
    expect(index.files.map(({ platform, file }) => `${platform} ${file}`)).toEqual([`linux ${ARCHIVE}`, `linux ${DEB}`]);
    for (const { file, size, sha256 } of index.files) {
      const bytes = readFileSync(join(built, file));
      expect(bytes.length).toBe(size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
    }
    expect((await readdir(built)).sort()).toEqual([DEB, ARCHIVE, 'releases.json'].sort());

    // What `npm start` asks before it builds again: the same inputs and origin need nothing new.
    expect(await upToDate(built, ORIGIN, ['linux'])).toBe(true);
    expect(await upToDate(built, 'https://meshwork.example', ['linux'])).toBe(false);
    expect(await upToDate(built, ORIGIN, ['linux', 'windows'])).toBe(false);
  }, 60_000);

  it('refuses an origin that is not an http(s) origin, saying what it wants', async () => {
    for (const [origin, said] of [
      ['ftp://meshwork.example', '--origin must use http or https'],
      ['https://meshwork.example/downloads', 'no path'],
      ['meshwork.example', '--origin must be an http(s) origin'],
    ]) {
      const refused = await packageCommand(['--out', join(work, 'refused'), '--origin', origin!, '--platform', 'linux'], {
        timeout: 30_000,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(said);
    }
    const platform = await packageCommand(['--out', join(work, 'refused'), '--platform', 'macos'], { timeout: 30_000 });
    expect(platform.stderr).toContain('--platform must be linux, windows or all');
    expect(existsSync(join(work, 'refused'))).toBe(false);
  }, 60_000);

  it('packs an archive whose app names the site it was built for', async () => {
    const listed = (await runTool('tar', ['-tzf', join(built, ARCHIVE)])).split('\n');
    expect(listed).toEqual(
      expect.arrayContaining([`${TOP}/meshwork-host`, `${TOP}/node/bin/node`, `${TOP}/app/dist/desktop/src/runtime/main.js`]),
    );
    expect(listed.filter((name) => name && !name.startsWith(`${TOP}/`))).toEqual([]);
    const release = await runTool('tar', ['-xzOf', join(built, ARCHIVE), `${TOP}/app/release.json`]);
    expect(JSON.parse(release)).toEqual({ origin: ORIGIN, version: desktopVersion, platform: 'linux' });
  }, 60_000);

  it('packs a .deb with its control fields, a command on the PATH, a desktop entry and an icon', async () => {
    const info = await runTool('dpkg-deb', ['--info', join(built, DEB)]);
    const field = (name: string) => new RegExp(`^ ${name}: (.+)$`, 'm').exec(info)?.[1];
    expect(field('Package')).toBe('meshwork-desktop');
    expect(field('Version')).toBe(desktopVersion);
    expect(field('Architecture')).toBe('amd64');
    expect(field('Maintainer')).toMatch(/^Meshwork <\S+@\S+>$/);
    expect(field('Description')).toBe('Meshwork desktop host');
    // Node alone is over 100 MB: a count that forgot the tree would be far below.
    expect(Number(field('Installed-Size'))).toBeGreaterThan(100_000);

    const contents = await runTool('dpkg-deb', ['--contents', join(built, DEB)]);
    for (const path of [
      './usr/bin/meshwork',
      './usr/share/applications/meshwork.desktop',
      './usr/share/icons/hicolor/scalable/apps/meshwork.svg',
      './opt/meshwork/meshwork-host',
      './opt/meshwork/app/release.json',
    ])
      expect(contents).toMatch(new RegExp(` root/root .* ${path.replaceAll('.', '\\.')}$`, 'm'));
  }, 60_000);

  it('installed into an empty root, runs with an empty environment from the command its desktop entry starts', async () => {
    const installRoot = await mkdtemp(join(work, 'root-'));
    await runTool('dpkg-deb', ['-x', join(built, DEB), installRoot]);

    const entry = readFileSync(join(installRoot, 'usr/share/applications/meshwork.desktop'), 'utf8');
    const key = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(entry)?.[1];
    expect(entry.split('\n')[0]).toBe('[Desktop Entry]');
    expect(key('Type')).toBe('Application');
    expect(key('Name')).toBe('Meshwork');
    expect(key('Categories')).toMatch(/;$/);
    expect(existsSync(join(installRoot, `usr/share/icons/hicolor/scalable/apps/${key('Icon')}.svg`))).toBe(true);
    const command = key('Exec')!.split(' ')[0]!;
    expect(command).toBe('/usr/bin/meshwork');
    accessSync(join(installRoot, command), constants.X_OK);

    // No PATH, no HOME: the command finds the tree beside it, whatever the root.
    const printed = await runTool(join(installRoot, command), ['--version'], { env: {}, timeout: 30_000 });
    expect(printed).toMatch(new RegExp(`\\b${desktopVersion.replaceAll('.', '\\.')}\\b`));
    const release = JSON.parse(readFileSync(join(installRoot, 'opt/meshwork/app/release.json'), 'utf8')) as unknown;
    expect(release).toEqual({ origin: ORIGIN, version: desktopVersion, platform: 'linux' });
  }, 60_000);

  describe('the archive, published by staff and downloaded by a customer', () => {
    let world: NetworksWorld;
    let host: ChildProcess | undefined;

    beforeAll(async () => {
      world = await networksWorld();
    }, 60_000);

    afterAll(async () => {
      if (host && host.exitCode === null) {
        host.kill('SIGKILL');
        await new Promise((done) => host!.once('exit', done));
      }
      await world?.close();
    });

    it('runs from an empty directory with nothing installed: signs in, downloads the model and answers', async () => {
      const version = `3.${Math.floor(Math.random() * 1000)}.0`;
      const form = new FormData();
      form.append('version', version);
      form.append('release_notes', 'Linux archive');
      form.append('platform', 'linux');
      form.append('file', await openAsBlob(join(built, ARCHIVE)), ARCHIVE);
      await world.staff('POST', '/models/admin/releases/', form);
      await world.staff('PATCH', `/models/admin/releases/${version}/`, { is_stable: true, is_active: true });

      const model = await uploadSmolLM2(world, ['pro']);
      const customer = await world.customer('pro');
      const info = (await customer.get('/downloads/desktop-app-info/?platform=linux').expect(200)).body as { download_url: string };
      const download = await fetch(`${world.base}${info.download_url}`, { headers: { Authorization: `Bearer ${customer.token}` } });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="Meshwork-Desktop-v${version}.tar.gz"`);
      const installDir = join(work, 'install');
      await mkdir(installDir);
      const downloaded = join(work, `Meshwork-Desktop-v${version}.tar.gz`);
      await writeFile(downloaded, Buffer.from(await download.arrayBuffer()));
      await runTool('tar', ['-xzf', downloaded, '-C', installDir]);
      expect(await readdir(installDir)).toEqual([TOP]);

      // No PATH, no HOME, no Node: only what the archive holds. Flags name everything, so the
      // test does not depend on the platform's defaults (the data folder, the release's site).
      host = spawn(
        join(installDir, TOP, 'meshwork-host'),
        [
          ...['--data-dir', join(work, 'data'), '--api', world.base, '--no-open'],
          ...['--ui-port', '0', '--api-address', '127.0.0.1', '--api-port', '0', '--lan-port', '0'],
        ],
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
      const answer = await fetch(`${openai}/chat/completions`, {
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
});
