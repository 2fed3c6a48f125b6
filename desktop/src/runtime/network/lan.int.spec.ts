/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issue 14, section 8: real machines on one. Four hosts, each in its own network namespace on a
 * link-local bridge (nothing routed out), reach the api only through a relay on the root
 * namespace's side of the bridge, one relay per machine so a machine's way to the api can be cut.
 * Discovery by multicast, joining with the code, the Free plan's cap (at the api and, offline,
 * at the host), the golden answer with the model's blocks on three devices, a staff plan change
 * reaching all three live, a lower cap disconnecting the newest client, a member
 * killed mid-answer, the api unreachable (served within grace, refused after).
 */
import OpenAI from 'openai';
import type { HostState } from '@meshwork/contracts';
import { installModel, type Lan, startLan } from '@meshwork/testkit/desktop/lan-fixture';
import type { LanHost } from '@meshwork/testkit/desktop/lan-host';
import { CAPITAL_OF_FRANCE as CHAT, uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';

const GOLDEN = 'The capital of France is Paris.';
const BLOCKS = 6;
const ALL_BLOCKS = [0, 1, 2, 3, 4, 5];

describe('three hosts on a LAN of network namespaces', () => {
  let lan: Lan;
  let model: { name: string };
  let hosts: Record<'studio' | 'laptop' | 'workstation' | 'tablet', LanHost>;
  let key: string;
  let networkId: string;

  const openai = () => new OpenAI({ apiKey: key, baseURL: hosts.studio.openai, maxRetries: 0, timeout: 60_000 });
  const members = (state: HostState) => state.network?.members ?? [];

  beforeAll(async () => {
    lan = await startLan(4);
    model = await uploadSmolLM2(lan.world, ['free'], BLOCKS);
    const { email } = await lan.world.customer('free');
    // Equal pinned speeds: four hosts on this machine's cores would measure one another, and the plan would follow the noise.
    hosts = await lan.startHosts(
      { studio: 'm1', laptop: 'm2', workstation: 'm3', tablet: 'm4' },
      { email, model: model.name },
      { speed: 100 },
    );
    for (const host of [hosts.studio, hosts.laptop, hosts.workstation]) await installModel(host, model.name);
    key = (await hosts.studio.call('POST', '/host/api-keys', { name: 'Office apps' })).body.key as string;
  }, 300_000);

  afterAll(() => lan?.close(), 60_000);

  it('creates a network on the studio and the other machines discover it on the LAN', async () => {
    expect((await hosts.studio.call('POST', '/host/network/create', { name: 'Office', model: model.name })).status).toBe(200);
    const hosting = await hosts.studio.until((s) => s.network?.message === null, 20_000, 'a running network');
    networkId = hosting.network!.id;
    expect(hosting.network!.addresses).toEqual([`${hosts.studio.address}:8433`]);
    for (const host of [hosts.laptop, hosts.workstation, hosts.tablet]) {
      // Verified before any join: each device's signed document names the certificate the studio registered at the api.
      const seen = await host.until((s) => s.discovered.some((n) => n.id === networkId && n.verified), 20_000, 'the network discovered');
      expect(seen.discovered).toEqual([
        {
          id: networkId,
          name: 'Office',
          model: model.name,
          host_name: 'Studio',
          address: hosts.studio.address,
          port: 8433,
          certificate_sha256: hosting.network!.certificate_sha256,
          verified: true,
        },
      ]);
    }
  });

  it('admits two clients with the code, and refuses a third on the Free plan: at the api, and at the host when offline', async () => {
    const code = (await hosts.studio.state()).network!.join_code!.code;
    for (const host of [hosts.laptop, hosts.workstation]) {
      const joined = await host.call('POST', '/host/network/join', { network_id: networkId, code });
      expect(joined.status).toBe(200);
      await host.until((s) => s.network?.connected === true, 10_000, 'connected to the studio');
    }
    const refused = await hosts.tablet.call('POST', '/host/network/join', { network_id: networkId, code });
    expect(refused).toMatchObject({ status: 400, body: { message: 'Your Free plan allows 2 clients per network. Upgrade to add more.' } });

    // Offline the api cannot refuse: the studio refuses from its own signed document.
    lan.relay('tablet').cut();
    await hosts.tablet.until((s) => s.connection === 'offline', 15_000, 'offline');
    const offline = await hosts.tablet.call('POST', '/host/network/join', { network_id: networkId, code });
    expect(offline).toMatchObject({ status: 400, body: { message: 'Your Free plan allows 2 clients per network. Upgrade to add more.' } });
    lan.relay('tablet').restore();

    const studio = await hosts.studio.until((s) => members(s).filter((m) => m.online).length === 3, 10_000, 'three devices online');
    expect(members(studio).map((m) => [m.name, m.role])).toEqual([
      ['Studio', 'host'],
      ['Laptop', 'client'],
      ['Workstation', 'client'],
    ]);
  });

  it('answers "The capital of France is Paris." with the model’s blocks on three devices', async () => {
    const answer = await openai().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 });
    expect(answer.choices[0]?.message.content).toBe(GOLDEN);
    const blocks = members(await hosts.studio.state()).map((m) => m.blocks);
    // Every device runs some; the studio, the host, runs the model's head, so logits never cross the LAN.
    expect(blocks.every((held) => held.length > 0)).toBe(true);
    expect(blocks.flat().sort()).toEqual(ALL_BLOCKS);
    expect(blocks[0]).toContain(BLOCKS - 1);
    // Each client knows which blocks every device holds, as the studio's window does.
    const plan = JSON.stringify(blocks);
    await hosts.laptop.until((s) => JSON.stringify(members(s).map((m) => m.blocks)) === plan, 20_000, 'the plan on the laptop');
  }, 60_000);

  it('brings a staff plan change to all three devices, live (bench:network measures how fast)', async () => {
    const before = hosts.studio.documents.length;
    const started = Date.now();
    await lan.world.staff('PUT', '/admin-panel/plans/free', { max_clients: 3 });
    const documents = await Promise.all(
      [hosts.studio, hosts.laptop, hosts.workstation].map((host) =>
        host.documentWhere((d) => d.plan.max_clients_per_network === 3, 30_000, 'document with the new cap'),
      ),
    );
    console.log(`staff plan change → applied on each host: ${documents.map((d) => `${d.at - started} ms`).join(', ')}`);
    expect(hosts.studio.documents.length).toBeGreaterThan(before);
  });

  it('disconnects the newest client when the plan’s cap falls below the clients', async () => {
    await lan.world.staff('PUT', '/admin-panel/plans/free', { max_clients: 1 });
    const studio = await hosts.studio.until(
      (s) => members(s).length === 2 && s.network?.max_clients === 1,
      10_000,
      'the workstation disconnected',
    );
    expect(members(studio).map((m) => m.name)).toEqual(['Studio', 'Laptop']);
    // Out of the network, it says why, and still sees the network announced, to join again when the plan allows.
    const out = await hosts.workstation.until(
      (s) => s.network === null && s.discovered.some((n) => n.id === networkId),
      10_000,
      'the workstation out',
    );
    // Its host tells it (client_limit), and its own signed document, following the api, drops the
    // network (network_ended): whichever comes first says why.
    expect(out.left_network?.name).toBe('Office');
    expect(['client_limit', 'network_ended']).toContain(out.left_network?.reason.code);
    expect((await hosts.laptop.state()).network).toMatchObject({ connected: true });
  });

  it('goes on with the answer when a member is killed mid-answer', async () => {
    const stream = await openai().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0, stream: true });
    const pieces: string[] = [];
    for await (const chunk of stream) {
      pieces.push(chunk.choices[0]?.delta.content ?? '');
      if (pieces.length === 2) hosts.laptop.kill();
    }
    expect(pieces.join('')).toBe(GOLDEN);
    const studio = await hosts.studio.until(
      (s) => members(s).find((m) => m.name === 'Laptop')?.online === false,
      10_000,
      'the laptop offline',
    );
    expect(members(studio).find((m) => m.name === 'Studio')!.blocks).toEqual(ALL_BLOCKS);
    expect(members(studio).find((m) => m.name === 'Laptop')!.blocks).toEqual([]);
  }, 60_000);

  it('keeps serving without the api until the grace ends, then refuses clearly, and serves again when it is back', async () => {
    lan.relay('studio').cut();
    const offline = await hosts.studio.until((s) => s.connection === 'offline', 15_000, 'offline');
    expect(offline.serving).toEqual({ allowed: true, reason: null });
    expect(offline.entitlements!.seconds_left).toBeGreaterThan(0);
    const within = await openai().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 });
    expect(within.choices[0]?.message.content).toBe(GOLDEN);

    const graceUntil = Date.parse(offline.entitlements!.grace_until);
    const expired = await hosts.studio.advance(graceUntil - Date.now() + 60_000);
    expect(expired.entitlements).toMatchObject({ status: 'expired', seconds_left: 0 });
    expect(expired.serving.allowed).toBe(false);
    await expect(openai().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 })).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/offline grace has ended.*served again as soon as it reconnects/),
    });

    await hosts.studio.advance(0);
    lan.relay('studio').restore();
    await hosts.studio.until((s) => s.connection === 'online', 20_000, 'back online');
    const again = await openai().chat.completions.create({ model: model.name, messages: CHAT, temperature: 0 });
    expect(again.choices[0]?.message.content).toBe(GOLDEN);
  }, 90_000);
});
