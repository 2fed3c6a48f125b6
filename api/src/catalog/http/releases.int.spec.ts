import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CatalogAuditEntry, DesktopAppInfo, DesktopRelease } from '@meshwork/contracts';
import { registerAccount, registerCustomer } from '@meshwork/testkit/api/accounts';
import { freePort } from '@meshwork/testkit/browser';
import { required } from '@meshwork/testkit/infra';
import { startTestApp } from '@meshwork/testkit/api/test-app';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { eventually } from '@meshwork/testkit/eventually';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { sha256, storageProxy } from '@meshwork/testkit/api/upload-kit';

/** A releases folder as `npm start` leaves it: releases.json and the files it names. */
async function builtInFolder(files: { platform: string; file: string; data: Buffer }[], extra: object = {}): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'meshwork-releases-'));
  for (const f of files) await fs.writeFile(path.join(dir, f.file), f.data);
  const index = {
    // As the packer writes it: no origin given, and a fingerprint of the sources the api need not read.
    version: '0.1.0',
    origin: null,
    sources: 'f'.repeat(64),
    files: files.map((f) => ({ platform: f.platform, file: f.file, size: f.data.length, sha256: sha256(f.data) })),
    skipped: [],
    ...extra,
  };
  await fs.writeFile(path.join(dir, 'releases.json'), JSON.stringify(index));
  return dir;
}

/** The api on a database of its own, serving `releasesDir` as the installation's own releases. */
async function serve(releasesDir: string) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const subject = await startTestApp({
    STRIPE_SECRET_KEY: '',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    PUBLIC_URL: base,
    DESKTOP_RELEASES_DIR: releasesDir,
  });
  await subject.app.listen(port, '127.0.0.1');
  const staff = await registerAccount(subject.app, 'staff', randomUUID().slice(0, 8), true);
  const customer = await registerCustomer(subject.app);
  const call = (urlPath: string, init: RequestInit = {}, token: string | null = staff.tokens.access) =>
    fetch(`${base}/api/v1${urlPath}`, {
      ...init,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
    });
  return { subject, base, staff, customer, call };
}

const info = async (call: Awaited<ReturnType<typeof serve>>['call'], query = '') => {
  const answer = await call(`/downloads/desktop-app-info/${query}`, {}, null);
  return { status: answer.status, body: (await answer.json()) as DesktopAppInfo & { message?: string } };
};

/** Staff upload one file of a release through the console's form. */
function releaseForm(fields: Record<string, string>, name: string, data: Buffer): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(data)]), name);
  return form;
}

describe('desktop releases per platform, staff and built-in, against real PostgreSQL and MinIO', () => {
  const exe = Buffer.concat([Buffer.from('MZ'), randomBytes(4000)]);
  const deb = Buffer.concat([Buffer.from('!<arch>\n'), randomBytes(3000)]);
  const archive = Buffer.concat([Buffer.from([0x1f, 0x8b]), randomBytes(2000)]);
  let releasesDir: string;
  let world: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    releasesDir = await builtInFolder(
      [
        { platform: 'windows', file: 'Meshwork-Desktop-v0.1.0.exe', data: exe },
        { platform: 'linux', file: 'Meshwork-Desktop-v0.1.0.deb', data: deb },
        { platform: 'linux', file: 'Meshwork-Desktop-v0.1.0.tar.gz', data: archive },
      ],
      { skipped: [] },
    );
    world = await serve(releasesDir);
  });
  afterAll(async () => {
    await world?.subject.close();
    await fs.rm(releasesDir, { recursive: true, force: true });
  });

  const upload = async (fields: Record<string, string>, name: string, data: Buffer) => {
    const answer = await world.call('/models/admin/releases/', { method: 'POST', body: releaseForm(fields, name, data) });
    return { status: answer.status, body: (await answer.json()) as DesktopRelease & { message?: string; field?: string } };
  };
  const patch = (version: string, body: object) =>
    world.call(`/models/admin/releases/${version}/`, {
      method: 'PATCH',
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
    });
  const releases = async () => (await (await world.call('/models/admin/releases/')).json()) as DesktopRelease[];
  const download = (name: string) =>
    fetch(`${world.base}/api/v1/downloads/desktop-app/${name}`, { headers: { Authorization: `Bearer ${world.customer.token}` } });

  it('on a fresh installation offers the files it built itself, with the right names and bytes', async () => {
    const windows = await info(world.call);
    expect(windows.status).toBe(200);
    expect(windows.body).toEqual({
      version: '0.1.0',
      download_url: '/api/v1/downloads/desktop-app/Meshwork-Desktop-v0.1.0.exe',
      downloads: [
        {
          platform: 'windows',
          format: 'exe',
          label: 'Windows installer',
          version: '0.1.0',
          file_name: 'Meshwork-Desktop-v0.1.0.exe',
          size: exe.length,
          download_url: '/api/v1/downloads/desktop-app/Meshwork-Desktop-v0.1.0.exe',
        },
        expect.objectContaining({ platform: 'linux', format: 'deb', label: 'Linux (.deb)', size: deb.length }),
        expect.objectContaining({ platform: 'linux', format: 'tar.gz', label: 'Linux archive (.tar.gz)', size: archive.length }),
      ],
    });
    // Linux's best is the package; a platform that is not one is refused plainly.
    expect((await info(world.call, '?platform=linux')).body.download_url).toBe('/api/v1/downloads/desktop-app/Meshwork-Desktop-v0.1.0.deb');
    expect((await info(world.call, '?platform=macos')).status).toBe(400);

    for (const [name, bytes] of [
      ['Meshwork-Desktop-v0.1.0.deb', deb],
      ['Meshwork-Desktop-v0.1.0.exe', exe],
      ['Meshwork-Desktop-v0.1.0.tar.gz', archive],
    ] as const) {
      const answer = await download(name);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);
    }
    expect((await world.customer.get('/downloads/history/').expect(200)).body.downloads).toHaveLength(3);
    expect((await fetch(`${world.base}/api/v1/downloads/desktop-app/Meshwork-Desktop-v0.1.0.deb`)).status).toBe(401);

    // The console lists the built-in release read-only, each file current.
    const [builtIn] = await releases();
    expect(builtIn).toMatchObject({ id: 'built-in', builtIn: true, version: '0.1.0', downloadCount: 3, isStable: true, isActive: true });
    expect(builtIn!.files.map((f) => [f.fileName, f.current])).toEqual([
      ['Meshwork-Desktop-v0.1.0.exe', true],
      ['Meshwork-Desktop-v0.1.0.deb', true],
      ['Meshwork-Desktop-v0.1.0.tar.gz', true],
    ]);
    expect((await patch('built-in', { is_active: false })).status).toBe(400);
  });

  it('answers a name that matches nothing with 404 and a clear message', async () => {
    const unknown = await download('Meshwork-Desktop-v0.1.0.dmg');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toMatch(/No desktop app file is called Meshwork-Desktop-v0\.1\.0\.dmg/);
    const noZip = await download('Meshwork-Desktop-v0.1.0.zip');
    expect(noZip.status).toBe(404);
    expect(await noZip.json()).toEqual({ message: 'No Windows archive (.zip) is available for download.' });
  });

  it('takes a staff upload per platform, refusing a file that does not suit its platform', async () => {
    const wrong = await upload({ version: '0.2.0', platform: 'linux' }, 'Meshwork-Setup.exe', exe);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('A Linux release must be a .deb or .tar.gz file; Meshwork-Setup.exe is not.');
    expect((await upload({ version: '0.2.0' }, 'notes.txt', exe)).body.message).toMatch(/Choose a \.exe or \.zip file for Windows/);
    expect((await upload({ version: '0.2.0', platform: 'mac' }, 'a.deb', deb)).status).toBe(400);

    const linux = await upload({ version: '0.2.0', platform: 'linux', release_notes: 'Linux first' }, 'meshwork.deb', deb.subarray(1));
    expect(linux.status).toBe(201);
    expect(linux.body).toMatchObject({ version: '0.2.0', isStable: false, isActive: false, builtIn: false, releaseNotes: 'Linux first' });
    expect(linux.body.files).toEqual([
      expect.objectContaining({ platform: 'linux', format: 'deb', fileName: 'meshwork.deb', current: false }),
    ]);
    // The same version takes the Linux archive too (no platform: the extension says it), but not a second .deb.
    const second = await upload({ version: '0.2.0' }, 'meshwork.tar.gz', archive.subarray(1));
    expect(second.body.files.map((f) => `${f.platform}/${f.format}`)).toEqual(['linux/deb', 'linux/tar.gz']);
    const again = await upload({ version: '0.2.0', platform: 'linux' }, 'other.deb', deb);
    expect([again.status, again.body.message]).toEqual([400, 'Version 0.2.0 already has a Linux (.deb) file.']);
    // Not published: customers still get the built-in files.
    expect((await info(world.call, '?platform=linux')).body.version).toBe('0.1.0');
  });

  it('publishes in one step: a Linux release replaces the built-in Linux files but not the Windows one; withdrawn, they come back', async () => {
    const published = await patch('0.2.0', { is_stable: true, is_active: true });
    expect(published.status).toBe(200);
    expect(await published.json()).toMatchObject({ isStable: true, isActive: true });

    const now = (await info(world.call)).body;
    expect(now.version).toBe('0.1.0'); // Windows's best is still the built-in installer
    expect(now.downloads.map((d) => `${d.format}@${d.version}`)).toEqual(['exe@0.1.0', 'deb@0.2.0', 'tar.gz@0.2.0']);
    const got = await download('Meshwork-Desktop-v0.2.0.deb');
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="Meshwork-Desktop-v0.2.0.deb"');
    expect(Buffer.from(await got.arrayBuffer()).equals(deb.subarray(1))).toBe(true);

    const [builtIn, staff] = await releases();
    expect(builtIn!.files.map((f) => `${f.format}:${f.current}`)).toEqual(['exe:true', 'deb:false', 'tar.gz:false']);
    expect(staff!.files.map((f) => `${f.format}:${f.current}`)).toEqual(['deb:true', 'tar.gz:true']);
    expect(staff!.downloadCount).toBe(1);

    // Every step is in the audit log, the file named.
    const audit = (await (await world.call('/models/admin/audit/')).json()) as CatalogAuditEntry[];
    const mine = audit.filter((a) => a.resourceId === '0.2.0').map((a) => a.details);
    expect(mine).toEqual(['Activated', 'MarkedStable', 'Desktop release 0.2.0: meshwork.tar.gz', 'Desktop release 0.2.0: meshwork.deb']);

    expect((await patch('0.2.0', { is_active: false })).status).toBe(200);
    expect((await info(world.call, '?platform=linux')).body.downloads.map((d) => `${d.format}@${d.version}`)).toEqual([
      'exe@0.1.0',
      'deb@0.1.0',
      'tar.gz@0.1.0',
    ]);
  });

  it('publishes at upload ("Publish now"): the Windows installer is current at once', async () => {
    const now = await upload({ version: '0.3.0', platform: 'windows', publish: 'true' }, 'Meshwork Setup.exe', exe.subarray(2));
    expect(now.status).toBe(201);
    expect(now.body).toMatchObject({ isStable: true, isActive: true, files: [expect.objectContaining({ format: 'exe', current: true })] });
    const windows = (await info(world.call)).body;
    expect([windows.version, windows.download_url]).toEqual(['0.3.0', '/api/v1/downloads/desktop-app/Meshwork-Desktop-v0.3.0.exe']);
    // A platform with no file of its own still gets an answer: any platform's best.
    expect((await info(world.call, '?platform=linux')).body.version).toBe('0.1.0');
  });

  it('reads an old upload that named no platform by its extension', async () => {
    const data = {
      version: '0.0.9',
      releaseNotes: '',
      objectKey: `releases/${randomUUID()}`,
      fileName: 'meshwork-host-0.0.9-linux-x64.tar.gz',
      size: 7,
      sha256: '0'.repeat(64),
    };
    const store = world.subject.app.get<EventStore>(EVENT_STORE);
    await store.append('release-0.0.9', [anEvent({ type: 'ReleaseUploaded', data })], 0);
    let old: DesktopRelease | undefined;
    await eventually(async () => !!(old = (await releases()).find((r) => r.version === '0.0.9')), 'the old release in the console');
    expect(old!.files).toEqual([expect.objectContaining({ platform: 'linux', format: 'tar.gz', label: 'Linux archive (.tar.gz)' })]);
  });

  it('answers a release upload with storage down at once, and keeps no release', async () => {
    const proxy = await storageProxy(new URL(required('S3_ENDPOINT')));
    proxy.cut();
    const port = await freePort();
    const cutOff = await startTestApp({ STRIPE_SECRET_KEY: '', S3_ENDPOINT: proxy.url }, world.subject);
    await cutOff.app.listen(port, '127.0.0.1');
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/models/admin/releases/`, {
        method: 'POST',
        body: releaseForm({ version: '8.1.0' }, 'MeshworkSetup.exe', randomBytes(3 * 1024 * 1024)),
        headers: { Authorization: `Bearer ${world.staff.tokens.access}` },
      });
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ message: 'File storage is unavailable, so nothing was saved. Please try again shortly.' });
      expect((await releases()).map((r) => r.version)).not.toContain('8.1.0');
    } finally {
      await cutOff.close();
      await proxy.close();
    }
  });

  it('refuses the files when the plan does not include downloads', async () => {
    const plan = (downloadAccess: boolean) =>
      world.call('/admin-panel/plans/free', {
        method: 'PUT',
        body: JSON.stringify({ download_access: downloadAccess }),
        headers: { 'Content-Type': 'application/json' },
      });
    await plan(false);
    try {
      const user = await registerCustomer(world.subject.app);
      expect((await user.get('/plan/').expect(200)).body.download_info).toEqual({ download_access: false });
      await user.get('/downloads/desktop-app/Meshwork-Desktop-v0.1.0.exe').expect(403);
    } finally {
      await plan(true);
    }
  });

  it('says the steps for each platform in the installation guide, naming the current files', async () => {
    const guide = (await (await world.call('/downloads/installation-guide/', {}, null)).json()) as {
      steps: string[];
      platforms: { platform: string; steps: string[] }[];
    };
    expect(guide.steps[0]).toMatch(/Windows or Linux \(macOS is not yet available\)/);
    const [windows, linux] = guide.platforms;
    expect(windows!.steps[0]).toMatch(/Meshwork-Desktop-v0\.3\.0\.exe.*no administrator rights are needed/);
    expect(linux!.steps[0]).toContain('sudo apt install ./Meshwork-Desktop-v0.1.0.deb');
    expect(linux!.steps[1]).toMatch(/tar -xzf Meshwork-Desktop-v0\.1\.0\.tar\.gz.*meshwork-host/);
  });
});

describe('a hostile or broken built-in releases index', () => {
  let releasesDir: string;
  let world: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    releasesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'meshwork-hostile-'));
    const real = randomBytes(100);
    await fs.writeFile(path.join(releasesDir, 'Meshwork-Desktop-v0.1.0.deb'), real);
    await fs.writeFile(path.join(releasesDir, 'Meshwork-Desktop-v0.1.0.tar.gz'), real);
    // A link that looks like a file of the folder, leading out of it.
    await fs.symlink('/etc/hostname', path.join(releasesDir, 'Meshwork-Desktop-v0.1.0.zip'));
    const hostname = await fs.stat('/etc/hostname');
    const entry = (platform: string, file: string, size: number) => ({ platform, file, size, sha256: sha256(real) });
    const index = {
      version: '0.1.0',
      files: [
        entry('linux', '../../etc/passwd', (await fs.stat('/etc/passwd')).size),
        entry('windows', '/etc/passwd.exe', 10),
        entry('linux', 'Meshwork-Desktop-v0.1.0.deb', 99), // of another size
        entry('windows', 'Meshwork-Desktop-v0.1.0.tar.gz', 100), // not a Windows file
        entry('windows', 'Meshwork-Desktop-v0.1.0.exe', 100), // missing
        entry('windows', 'Meshwork-Desktop-v0.1.0.zip', hostname.size),
        { platform: 'linux', file: 42 },
      ],
    };
    await fs.writeFile(path.join(releasesDir, 'releases.json'), JSON.stringify(index));
    world = await serve(releasesDir);
  });
  afterAll(async () => {
    await world?.subject.close();
    await fs.rm(releasesDir, { recursive: true, force: true });
  });

  it('offers nothing, and never answers 500', async () => {
    expect((await info(world.call)).status).toBe(404);
    for (const name of [
      'Meshwork-Desktop-v0.1.0.deb',
      'Meshwork-Desktop-v0.1.0.zip',
      'Meshwork-Desktop-v0.1.0.exe',
      '..%2F..%2Fetc%2Fpasswd',
    ]) {
      const answer = await fetch(`${world.base}/api/v1/downloads/desktop-app/${name}`, {
        headers: { Authorization: `Bearer ${world.customer.token}` },
      });
      expect([name, answer.status]).toEqual([name, 404]);
    }
    const [builtIn] = (await (await world.call('/models/admin/releases/')).json()) as DesktopRelease[];
    expect(builtIn).toMatchObject({ id: 'built-in', files: [] });
  });

  it('ignores an index that is not JSON, and reads it again once it changes', async () => {
    const index = path.join(releasesDir, 'releases.json');
    await fs.writeFile(index, '{"version": "0.1.0", "files": [');
    await fs.utimes(index, new Date(), new Date(Date.now() + 5_000));
    expect((await info(world.call)).status).toBe(404);
    expect((await world.call('/models/admin/releases/')).status).toBe(200);

    const good = {
      version: '0.1.1',
      files: [{ platform: 'linux', file: 'Meshwork-Desktop-v0.1.0.tar.gz', size: 100, sha256: 'a'.repeat(64) }],
    };
    await fs.writeFile(index, JSON.stringify(good));
    await fs.utimes(index, new Date(), new Date(Date.now() + 10_000));
    const now = await info(world.call);
    expect([now.status, now.body.download_url]).toEqual([200, '/api/v1/downloads/desktop-app/Meshwork-Desktop-v0.1.1.tar.gz']);
  });
});
