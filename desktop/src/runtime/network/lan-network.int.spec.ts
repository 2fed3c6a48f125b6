/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issues 14 (section 4) and 34 (section 2), on loopback: a host creates a network, a second
 * device joins it with the code over TLS, the model's blocks run on both, a stranger gets
 * nothing, and the answer goes on when the member vanishes mid-answer. The member never
 * downloads the model: it fetches only its blocks' files from the host over the LAN link, each
 * checked against the manifest the signed document names, so the platform's download log shows
 * the model came down once (to the host); a host file that fails its check is taken from the
 * platform instead. (`lan.int.spec.ts` runs three machines in namespaces.)
 */
import OpenAI from 'openai';
import { connect } from 'node:tls';
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostState, MODEL_MANIFEST_FILE, ModelPackageManifest } from '@meshwork/contracts';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';
import { CAPITAL_OF_FRANCE as CHAT, uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';
import { lanIdentity } from './lan-identity';

describe('a network of two devices on loopback', () => {
  let world: NetworksWorld;
  let model: { name: string; id: string };
  let email: string;
  let host: TestHost;
  let member: TestHost;
  let key: string;
  let manifest: ModelPackageManifest;
  /** The stranger's identity folder, removed with the rest. */
  let strangerDir: string | undefined;

  /** A host signed in (or started again on its data), the model in its plan; `install` downloads the whole model. */
  async function device(name: string, install: boolean, dataDir?: string, fingerprint?: string): Promise<TestHost> {
    const subject = await startHost(world.base, { name, dataDir, fingerprint });
    if (!dataDir) expect((await subject.call('POST', '/host/sign-in/password', { email, password: TEST_PASSWORD })).status).toBe(200);
    await subject.until((s) => s.models.some((m) => m.name === model.name), 20_000, 'the model in the plan');
    if (!install) return subject;
    expect((await subject.call('POST', '/host/models/download', { name: model.name })).status).toBe(200);
    await subject.until((s) => s.models.find((m) => m.name === model.name)?.status === 'installed', 120_000, 'the model installed');
    return subject;
  }

  const network = (state: HostState) => state.network!;
  const laptop = (state: HostState) => state.network?.members.find((m) => m.name === 'Laptop');
  const shareDir = () => join(member.dataDir, 'models', '.shares', model.name, '1.0.0');
  const installedDir = () => join(host.dataDir, 'models', model.name, '1.0.0');
  /** The platform's download log for the model: how many presigned links each file was given. */
  async function platformDownloads(): Promise<Record<string, number>> {
    const { rows } = await world.subject.db.pool.query<{ file: string; n: number }>(
      "SELECT data->>'fileName' AS file, count(*)::int AS n FROM es_events WHERE type = 'DownloadRecorded' AND data->>'ref' = $1 GROUP BY 1",
      [model.id],
    );
    return Object.fromEntries(rows.map((r) => [r.file, r.n]));
  }
  /** The files blocks `blocks` need, with the package's manifest and tokenizer. */
  const filesOf = (blocks: number[]) => [
    MODEL_MANIFEST_FILE,
    manifest.tokenizer,
    ...blocks.flatMap((b) => [manifest.blocks[b]!.file, manifest.blocks[b]!.weights.file]),
  ];

  beforeAll(async () => {
    world = await networksWorld();
    model = await uploadSmolLM2(world, ['pro'], 3);
    email = (await world.customer('pro')).email;
    host = await device('Studio', true);
    member = await device('Laptop', false);
    key = ((await host.call('POST', '/host/api-keys', { name: 'Test' })).body as { key: string }).key;
    manifest = ModelPackageManifest.parse(JSON.parse(await readFile(join(installedDir(), MODEL_MANIFEST_FILE), 'utf8')));
  }, 300_000);

  afterAll(async () => {
    await member?.close();
    await host?.close();
    await world?.close();
    if (strangerDir) await rm(strangerDir, { recursive: true, force: true });
  });

  it('creates a network with a join code, and a device of the same account joins it with the code', async () => {
    const created = await host.call('POST', '/host/network/create', { name: 'Office', model: model.name });
    expect(created.status).toBe(200);
    const hosting = await host.until((s) => s.network?.join_code !== null && s.network?.message === null, 15_000, 'a running network');
    expect(network(hosting)).toMatchObject({ role: 'host', name: 'Office', model: model.name, status: 'active', connected: true });
    expect(network(hosting).join_code!.code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);

    const wrong = await member.call('POST', '/host/network/join', { address: network(hosting).addresses[0], code: 'BBBB-CCCC' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/invalid or has expired/);
    // The api's words go on as the refusal's value, beside its code, for the window to word.
    expect(wrong.body).toMatchObject({ code: 'api_refused', detail: wrong.body.message });

    const joined = await member.call('POST', '/host/network/join', {
      address: network(hosting).addresses[0],
      code: network(hosting).join_code!.code,
    });
    expect(joined.status).toBe(200);
    const client = await member.until((s) => s.network?.connected === true, 10_000, 'connected to the host');
    expect(await member.call('POST', '/host/network/create', { name: 'Second', model: model.name })).toMatchObject({
      status: 400,
      body: { message: 'This device is already in a network: leave it first.', code: 'already_in_network' },
    });
    expect(network(client)).toMatchObject({ role: 'client', name: 'Office', model: model.name });
    const members = (
      await host.until((s) => s.network?.members.some((m) => m.name === 'Laptop' && m.online) ?? false, 10_000, 'the member online')
    ).network!.members;
    expect(members.map((m) => [m.name, m.role])).toEqual([
      ['Studio', 'host'],
      ['Laptop', 'client'],
    ]);
  });

  it('answers "The capital of France is Paris." with the model’s blocks on both devices, the member’s fetched from the host', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: host.openaiBase, maxRetries: 0, timeout: 60_000 });
    const answer = await openai.chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 });
    expect(answer.choices[0]?.message.content).toBe('The capital of France is Paris.');
    // A plan being made again (a device's new report) may be under way as the answer ends.
    const planned = await host.until(
      (s) => s.network!.members.every((m) => m.blocks.length > 0) && laptop(s)?.share?.files.length === filesOf(laptop(s)!.blocks).length,
      10_000,
      'blocks on both, the member’s share shown',
    );
    const members = planned.network!.members;
    expect(
      members
        .map((m) => m.blocks)
        .flat()
        .sort(),
    ).toEqual([0, 1, 2]);
    // The client sees the same plan, as its host tells it.
    await member.until(
      (s) => s.network?.members.find((m) => m.name === 'Laptop')?.blocks.length === members[1]!.blocks.length,
      5000,
      'the plan on the client',
    );

    // The member's disk holds its share and no more, every file from the host; it never installed the model.
    const blocks = laptop(planned)!.blocks;
    expect(member.host.state().models.find((m) => m.name === model.name)?.status).toBe('not-downloaded');
    expect((await readdir(shareDir())).sort()).toEqual([...filesOf(blocks), 'manifest.json', '.sources.json'].sort());
    expect(laptop(planned)!.share!.files.map((f) => [f.name, f.source])).toEqual(filesOf(blocks).map((name) => [name, 'lan']));
    expect(laptop(planned)!.share!.disk_bytes).toBeGreaterThan(0);
    expect(members[0]!.share!.files.every((f) => f.source === 'installed')).toBe(true);
    // Both windows know the model's block count (the host from its package, the member from its share's).
    expect(planned.network!.block_count).toBe(3);
    expect(member.host.state().network!.block_count).toBe(3);
    // The model crossed the internet once: the host's download of each file.
    const downloads = await platformDownloads();
    expect(Object.keys(downloads).sort()).toEqual((await readdir(installedDir())).filter((f) => f !== 'manifest.json').sort());
    expect(Object.values(downloads).every((n) => n === 1)).toBe(true);
  }, 60_000);

  it('gives a machine that is not a member nothing, even with a valid TLS certificate of its own', async () => {
    strangerDir = await mkdtemp(join(tmpdir(), 'stranger-'));
    const stranger = await lanIdentity(strangerDir, 'Stranger');
    const [address, port] = network(host.host.state()).addresses[0]!.split(':');
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(
        { host: address, port: Number(port), key: stranger.key, cert: stranger.certificate, rejectUnauthorized: false },
        () => {
          const header = Buffer.from(JSON.stringify({ type: 'status', node: { free_memory_bytes: 1, speed: 1, models: [] } }));
          const lengths = Buffer.alloc(8);
          lengths.writeUInt32BE(header.length, 0);
          socket.write(Buffer.concat([lengths, header]));
        },
      );
      let data = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => (data = Buffer.concat([data, chunk])));
      socket.on('close', () => resolve(data.subarray(8).toString('utf8')));
      socket.on('error', reject);
    });
    expect(JSON.parse(received)).toEqual({ type: 'refused', reason: { code: 'hello_first' } });

    // Nor may it make the host hold a large frame: announcing one closes the connection at once.
    const closed = await new Promise<boolean>((resolve, reject) => {
      const socket = connect(
        { host: address, port: Number(port), key: stranger.key, cert: stranger.certificate, rejectUnauthorized: false },
        () => {
          const lengths = Buffer.alloc(8);
          lengths.writeUInt32BE(64, 0);
          lengths.writeUInt32BE(1024 * 1024, 4);
          socket.write(lengths);
        },
      );
      socket.on('close', () => resolve(true));
      socket.on('error', reject);
      setTimeout(() => resolve(false), 3000).unref();
    });
    expect(closed).toBe(true);
  });

  it('takes a file from the platform when the host’s copy fails its check', async () => {
    const blocks = laptop(host.host.state())!.blocks;
    const damaged = manifest.blocks[blocks[0]!]!.weights.file;
    await member.close({ keepData: true });
    // The host runs every block while the member is away; then one byte of its copy goes bad.
    await host.until((s) => s.network!.members[0]!.blocks.length === 3, 30_000, 'the host holding every block');
    const flipByte = async () => {
      const file = await open(join(installedDir(), damaged), 'r+');
      const byte = Buffer.alloc(1);
      await file.read(byte, 0, 1, 1000);
      await file.write(Buffer.from([byte[0]! ^ 0xff]), 0, 1, 1000);
      await file.close();
    };
    await flipByte();
    await rm(join(shareDir(), damaged));

    member = await device('Laptop', false, member.dataDir, member.fingerprint);
    const back = await host.until(
      (s) =>
        (laptop(s)?.blocks.length ?? 0) > 0 &&
        laptop(s)?.share?.transfer === null &&
        laptop(s)?.share?.files.some((f) => f.name === damaged) === true,
      60_000,
      'the member’s share again',
    );
    expect(laptop(back)!.blocks).toEqual(blocks);
    expect(laptop(back)!.share!.files.find((f) => f.name === damaged)?.source).toBe('platform');
    expect(
      laptop(back)!
        .share!.files.filter((f) => f.name !== damaged)
        .every((f) => f.source === 'lan'),
    ).toBe(true);
    expect((await platformDownloads())[damaged]).toBe(2);

    const openai = new OpenAI({ apiKey: key, baseURL: host.openaiBase, maxRetries: 0, timeout: 60_000 });
    const answer = await openai.chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 });
    expect(answer.choices[0]?.message.content).toBe('The capital of France is Paris.');
    await flipByte(); // the host's copy mended: the host runs every block again in the next test
  }, 90_000);

  it('finishes the answer on the host when the member vanishes mid-answer', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: host.openaiBase, maxRetries: 0, timeout: 60_000 });
    const stream = await openai.chat.completions.create({ model: model.name, messages: CHAT, temperature: 0, stream: true });
    const pieces: string[] = [];
    let closing: Promise<void> | null = null;
    for await (const chunk of stream) {
      pieces.push(chunk.choices[0]?.delta.content ?? '');
      closing ??= member.close();
    }
    await closing;
    expect(pieces.join('')).toBe('The capital of France is Paris.');
    const after = host.host.state().network!.members;
    expect(after.find((m) => m.name === 'Laptop')).toMatchObject({ online: false, blocks: [] });
    expect(after.find((m) => m.name === 'Studio')!.blocks).toEqual([0, 1, 2]);
  }, 60_000);
});
