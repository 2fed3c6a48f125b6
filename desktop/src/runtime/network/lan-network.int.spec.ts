/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issue 14, section 4, on loopback: a host creates a network, a second device joins it with the
 * code over TLS, the model's blocks run on both, a stranger gets nothing, and the answer goes
 * on when the member vanishes mid-answer. (`lan.int.spec.ts` runs three machines in namespaces.)
 */
import OpenAI from 'openai';
import { connect } from 'node:tls';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostState } from '@meshwork/contracts';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';
import { CAPITAL_OF_FRANCE as CHAT, uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';
import { lanIdentity } from './lan-identity';

describe('a network of two devices on loopback', () => {
  let world: NetworksWorld;
  let model: { name: string };
  let host: TestHost;
  let member: TestHost;
  let key: string;
  /** The stranger's identity folder, removed with the rest. */
  let strangerDir: string | undefined;

  async function device(email: string, name: string): Promise<TestHost> {
    const subject = await startHost(world.base, { name });
    expect((await subject.call('POST', '/host/sign-in/password', { email, password: TEST_PASSWORD })).status).toBe(200);
    await subject.until((s) => s.models.some((m) => m.name === model.name), 20_000, 'the model in the plan');
    expect((await subject.call('POST', '/host/models/download', { name: model.name })).status).toBe(200);
    await subject.until((s) => s.models.find((m) => m.name === model.name)?.status === 'installed', 120_000, 'the model installed');
    return subject;
  }

  const network = (state: HostState) => state.network!;

  beforeAll(async () => {
    world = await networksWorld();
    model = await uploadSmolLM2(world, ['pro'], 3);
    const owner = await world.customer('pro');
    host = await device(owner.email, 'Studio');
    member = await device(owner.email, 'Laptop');
    key = ((await host.call('POST', '/host/api-keys', { name: 'Test' })).body as { key: string }).key;
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

  it('answers "The capital of France is Paris." with the model’s blocks on both devices', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: host.openaiBase, maxRetries: 0, timeout: 60_000 });
    const answer = await openai.chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 });
    expect(answer.choices[0]?.message.content).toBe('The capital of France is Paris.');
    // A plan being made again (a device's new report) may be under way as the answer ends.
    const members = (await host.until((s) => s.network!.members.every((m) => m.blocks.length > 0), 10_000, 'blocks on both')).network!
      .members;
    const blocks = members.map((m) => m.blocks);
    expect(blocks.flat().sort()).toEqual([0, 1, 2]);
    // The client sees the same plan, as its host tells it.
    await member.until(
      (s) => s.network?.members.find((m) => m.name === 'Laptop')?.blocks.length === members[1]!.blocks.length,
      5000,
      'the plan on the client',
    );
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
    expect(JSON.parse(received)).toEqual({ type: 'refused', message: 'Say who you are first.' });

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
