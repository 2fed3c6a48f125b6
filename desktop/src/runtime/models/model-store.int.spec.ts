import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { statfsSync, writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256, uploadForm } from '@meshwork/testkit/api/upload-kit';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import type { TestCustomer } from '@meshwork/testkit/api/accounts';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';

/** Issue 14, section 3: the host downloads the models its plan allows, resumably, verified, installed in one step. */
describe('the desktop host: models', () => {
  let world: NetworksWorld;
  const hosts: TestHost[] = [];
  const files = [
    { name: 'block-0.onnx', data: randomBytes(3_000_000) },
    { name: 'block-1.onnx', data: randomBytes(2_000_000) },
    { name: 'model.json', data: Buffer.from('{"name":"tiny"}') },
  ];

  beforeAll(async () => {
    world = await networksWorld();
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });
  afterAll(() => world?.close());

  /** A three-file package for the Pro plan, uploaded by staff through the console's call. */
  async function proModel(): Promise<{ name: string; id: string }> {
    const name = `pkg_${randomUUID().slice(0, 8)}`;
    const form = uploadForm(
      {
        name,
        display_name: `Package ${name}`,
        version: '1.0.0',
        allowed_plans: JSON.stringify(['pro']),
        checksums: JSON.stringify(Object.fromEntries(files.map((f) => [f.name, sha256(f.data)]))),
      },
      files,
    );
    const uploaded = await world.upload(form);
    return { name: uploaded.model_name, id: uploaded.model_id };
  }

  async function signedIn(owner: TestCustomer, dataDir?: string, fingerprint?: string): Promise<TestHost> {
    const subject = await startHost(world.base, { dataDir, fingerprint });
    hosts.push(subject);
    if (dataDir) return subject;
    const { body } = await subject.call('POST', '/host/sign-in/device');
    const code = (body.account as { user_code: string }).user_code;
    await owner.post('/devices/activate/', { user_code: code, name: 'Model host', approve: true }).expect(200);
    await subject.until((s) => s.connection === 'online', 15_000, 'sign-in');
    return subject;
  }

  /** The signed-in host's files in another data directory (whose models folder is a disk of its own). */
  async function moveTo(from: string, to: string): Promise<string> {
    for (const file of ['account.json', 'trust.json', 'entitlements.json', 'time-seal.json']) await cp(join(from, file), join(to, file));
    return to;
  }

  it('downloads a model the plan allows, resuming what an interrupted run left, and refuses one it does not', async () => {
    const owner = await world.customer('pro');
    const model = await proModel();
    const first = await signedIn(owner);
    await first.until((s) => s.models.some((m) => m.name === model.name), 10_000, 'the model in the plan');
    expect(first.host.state().models.find((m) => m.name === model.name)).toMatchObject({ allowed: true, status: 'not-downloaded' });
    const refused = await first.call('POST', '/host/models/download', { name: 'not_in_the_plan' });
    expect(refused).toEqual({
      status: 400,
      body: { code: 'not_in_plan', model: 'not_in_the_plan', message: 'Your plan does not include the model "not_in_the_plan".' },
    });
    await first.close({ keepData: true });
    hosts.splice(0);

    // What a run stopped mid-download leaves: the queue, half of one file, and a damaged start of another.
    const partial = join(first.dataDir, 'models', '.partial', model.name, '1.0.0');
    await mkdir(partial, { recursive: true });
    await writeFile(join(partial, 'block-0.onnx'), files[0]!.data.subarray(0, 1_234_567));
    await writeFile(join(partial, 'block-1.onnx'), randomBytes(1_000));
    await writeFile(join(first.dataDir, 'models', 'downloads.json'), JSON.stringify({ queued: [model.name] }));

    const again = await signedIn(owner, first.dataDir, first.fingerprint);
    const state = await again.until((s) => s.models.find((m) => m.name === model.name)?.status === 'installed', 30_000, 'installed');
    expect(state.models.find((m) => m.name === model.name)).toMatchObject({ allowed: true, error: null });
    const installed = join(first.dataDir, 'models', model.name, '1.0.0');
    for (const file of files) expect(sha256(await readFile(join(installed, file.name)))).toBe(sha256(file.data));
    expect(JSON.parse(await readFile(join(installed, 'manifest.json'), 'utf8'))).toMatchObject({ name: model.name, total_size: 5_000_015 });
    expect(await readdir(join(first.dataDir, 'models', '.partial', model.name))).toEqual([]);
    expect(JSON.parse(await readFile(join(first.dataDir, 'models', 'downloads.json'), 'utf8'))).toEqual({ queued: [] });
    // One link per file, and a second for the damaged one: each recorded in the person's history.
    const history = (await owner.get('/downloads/history/').expect(200)).body as { downloads: { version: string; fileSize: number }[] };
    const records = history.downloads.filter((d) => d.version === `${model.name}@1.0.0`);
    expect(records.map((d) => d.fileSize).sort((a, b) => a - b)).toEqual([15, 2_000_000, 2_000_000, 3_000_000]);

    // Staff take the model off the plan: it stays on disk, offered for removal, until the person removes it.
    await world.staff('PUT', `/models/admin/${model.id}/access/`, { allowed_plans: ['enterprise'] });
    await again.until((s) => s.models.find((m) => m.name === model.name)?.allowed === false, 10_000, 'the model withdrawn');
    expect(again.host.state().models.find((m) => m.name === model.name)?.status).toBe('installed');
    expect((await again.call('POST', '/host/models/remove', { name: model.name })).status).toBe(200);
    expect(again.host.state().models.find((m) => m.name === model.name)).toBeUndefined();
    await expect(stat(installed)).rejects.toThrow(/ENOENT/);
  });

  it('says in words that the disk filled up during a download, and keeps what came down', async () => {
    const owner = await world.customer('pro');
    const model = await proModel();
    // The models folder on a disk of its own (a tmpfs, mounted as root) with room for the package, filled up once it starts.
    const dataDir = await mkdtemp(join(tmpdir(), 'meshwork-host-'));
    const models = join(dataDir, 'models');
    await mkdir(models);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', models]);
    try {
      const subject = await signedIn(owner);
      await subject.close({ keepData: true });
      hosts.splice(0);
      const again = await signedIn(owner, await moveTo(subject.dataDir, dataDir), subject.fingerprint);
      await rm(subject.dataDir, { recursive: true, force: true });
      let filled = false;
      again.host.on('state', (state) => {
        // Past the free-space check (the total is known) and before any byte is written.
        if (filled || !state.models.some((m) => m.name === model.name && m.bytes_total > 0)) return;
        filled = true;
        const { bavail, bsize } = statfsSync(models);
        writeFileSync(join(models, 'filler'), Buffer.alloc(bavail * bsize - 1_000_000));
      });
      await again.until((s) => s.models.some((m) => m.name === model.name), 10_000, 'the model in the plan');
      expect((await again.call('POST', '/host/models/download', { name: model.name })).status).toBe(200);
      const state = await again.until((s) => s.models.find((m) => m.name === model.name)?.status === 'failed', 30_000, 'failed');
      expect(state.models.find((m) => m.name === model.name)!.error).toEqual({ code: 'disk_filled', model: `Package ${model.name}` });
      expect(filled).toBe(true);
      const partial = join(models, '.partial', model.name, '1.0.0');
      expect((await readdir(partial)).length).toBeGreaterThan(0);
      await again.close();
      hosts.splice(0);
    } finally {
      execFileSync('umount', [models]);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
