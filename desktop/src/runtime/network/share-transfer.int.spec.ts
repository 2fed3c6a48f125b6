/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issue 34, section 2, on loopback: a member that never downloads the model fetches only its
 * blocks' files from the network's host over the LAN link, each checked against the manifest
 * the signed document names; the platform's download log shows the model came down once (to
 * the host). A host file that fails its check is taken from the platform instead.
 */
import OpenAI from 'openai';
import { open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type HostState, MODEL_MANIFEST_FILE, ModelPackageManifest } from '@meshwork/contracts';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';
import { CAPITAL_OF_FRANCE as CHAT, uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';

describe('a member’s share of the model, from its host', () => {
  let world: NetworksWorld;
  let model: { name: string; id: string };
  let email: string;
  let host: TestHost;
  let member: TestHost;
  let key: string;
  let manifest: ModelPackageManifest;

  async function device(name: string, install: boolean, dataDir?: string, fingerprint?: string): Promise<TestHost> {
    const subject = await startHost(world.base, { name, dataDir, fingerprint });
    if (!dataDir) expect((await subject.call('POST', '/host/sign-in/password', { email, password: TEST_PASSWORD })).status).toBe(200);
    await subject.until((s) => s.models.some((m) => m.name === model.name), 20_000, 'the model in the plan');
    if (!install) return subject;
    expect((await subject.call('POST', '/host/models/download', { name: model.name })).status).toBe(200);
    await subject.until((s) => s.models.find((m) => m.name === model.name)?.status === 'installed', 120_000, 'the model installed');
    return subject;
  }

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
  });

  it('runs the model with a member that fetched only its blocks’ files, all from the host', async () => {
    expect((await host.call('POST', '/host/network/create', { name: 'Office', model: model.name })).status).toBe(200);
    const hosting = (await host.until((s) => s.network?.join_code !== null && s.network?.message === null, 15_000, 'a network')).network!;
    const joined = await member.call('POST', '/host/network/join', { address: hosting.addresses[0], code: hosting.join_code!.code });
    expect(joined.status).toBe(200);
    const held = await host.until((s) => (laptop(s)?.blocks.length ?? 0) > 0 && laptop(s)?.share?.transfer === null, 60_000, 'a share');

    const openai = new OpenAI({ apiKey: key, baseURL: host.openaiBase, maxRetries: 0, timeout: 60_000 });
    const answer = await openai.chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 });
    expect(answer.choices[0]?.message.content).toBe('The capital of France is Paris.');

    const blocks = laptop(held)!.blocks;
    expect(blocks.length).toBeLessThan(3); // the host holds the others
    // The member's disk holds its share and no more; it never installed the model.
    expect(member.host.state().models.find((m) => m.name === model.name)?.status).toBe('not-downloaded');
    expect((await readdir(shareDir())).sort()).toEqual([...filesOf(blocks), 'manifest.json', '.sources.json'].sort());
    const sources = JSON.parse(await readFile(join(shareDir(), '.sources.json'), 'utf8')) as { files: Record<string, string> };
    expect(Object.values(sources.files).every((source) => source === 'lan')).toBe(true);
    // What the host's window shows of each device: the member's files from the LAN, the host's own installed.
    const shown = (await host.until((s) => laptop(s)?.share?.files.length === filesOf(blocks).length, 5000, 'the share shown')).network!;
    expect(laptop({ network: shown } as HostState)!.share!.files.map((f) => [f.name, f.source])).toEqual(
      filesOf(blocks).map((name) => [name, 'lan']),
    );
    expect(shown.members[0]!.share!.files.every((f) => f.source === 'installed')).toBe(true);
    expect(laptop({ network: shown } as HostState)!.share!.disk_bytes).toBeGreaterThan(0);
    // Both windows know the model's block count (the host from its package, the member from its share's).
    expect(shown.block_count).toBe(3);
    expect(member.host.state().network!.block_count).toBe(3);

    // The model crossed the internet once: the host's download of each file.
    const downloads = await platformDownloads();
    expect(Object.keys(downloads).sort()).toEqual((await readdir(installedDir())).filter((f) => f !== 'manifest.json').sort());
    expect(Object.values(downloads).every((n) => n === 1)).toBe(true);
  }, 90_000);

  it('takes a file from the platform when the host’s copy fails its check', async () => {
    const blocks = laptop(host.host.state())!.blocks;
    const damaged = manifest.blocks[blocks[0]!]!.weights.file;
    await member.close({ keepData: true });
    // The host runs every block while the member is away; then one byte of its copy goes bad.
    await host.until((s) => s.network!.members[0]!.blocks.length === 3, 30_000, 'the host holding every block');
    const file = await open(join(installedDir(), damaged), 'r+');
    const byte = Buffer.alloc(1);
    await file.read(byte, 0, 1, 1000);
    await file.write(Buffer.from([byte[0]! ^ 0xff]), 0, 1, 1000);
    await file.close();
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
  }, 90_000);
});
