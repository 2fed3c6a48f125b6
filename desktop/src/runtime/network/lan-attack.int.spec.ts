/**
 * Issue 31, item 2 and 8: an attacker on the LAN, in network namespaces as `lan-fixture.ts`
 * builds them. It hears the office's announcement and announces the same network from its own
 * machine with its own certificate; a member picks that copy from the list and enters the code;
 * it replays a member's signed document over its own certificate; it guesses the code live at
 * the real host; it floods forged announcements. A member that never joined lists the real
 * host's announcement as verified (its signed document names the host's certificate, as the
 * host registered it at the api) and the copy apart, unverified; a join with the attacker is
 * refused before anything is sent, and a join from the list goes to the real host; the
 * replayed `hello` is refused; the host voids a code after JOIN_RUNS_PER_CODE failed runs; the
 * flood stays capped.
 */
import { createHmac } from 'node:crypto';
import { type HostState, normalizeJoinCode } from '@meshwork/contracts';
import { type Lan, startLan } from '@meshwork/testkit/desktop/lan-fixture';
import { type LanAttacker, type LanHost, startLanAttacker } from '@meshwork/testkit/desktop/lan-host';
import { uploadSmolLM2 } from '@meshwork/testkit/desktop/smollm2-upload';
import { UNVERIFIED_CAP } from './discovery';
import { JOIN_RUNS_PER_CODE } from './lan-network';

type Frame = Record<string, unknown>;

/**
 * Whether what the attacker captured lets it test a guess of the code without the real host:
 * the HMAC proof of the code joins sent before the key exchange, or a device's confirmation
 * (sent only once the host proved the code).
 */
function confirmsOffline(frames: Frame[], code: string, networkId: string): boolean {
  return frames.some((frame) => {
    if (typeof frame.proof === 'string') {
      const key = normalizeJoinCode(code)!;
      const message = `meshwork-lan-join\n${networkId}\n${String(frame.host_certificate)}\n${String(frame.member_certificate)}`;
      return createHmac('sha256', key).update(message).digest('hex') === frame.proof;
    }
    return frame.type === 'confirm';
  });
}

describe('an attacker on the LAN of network namespaces', () => {
  let lan: Lan;
  let hosts: Record<'studio' | 'laptop' | 'tablet', LanHost>;
  let attacker: LanAttacker;
  let networkId: string;
  let studioCertificate: string;
  let code: string;

  const studioAt = () => ({ address: hosts.studio.address, port: 8433 });
  const announcements = (state: HostState) => state.discovered.filter((n) => n.id === networkId);

  beforeAll(async () => {
    // No host downloads the model here: the machines need no way to the object store.
    lan = await startLan(4, { objectStore: false });
    const model = await uploadSmolLM2(lan.world, ['pro'], 3);
    const { email } = await lan.world.customer('pro');
    hosts = await lan.startHosts({ studio: 'm1', laptop: 'm2', tablet: 'm4' }, { email, model: model.name }, { speed: 100 });
    attacker = await startLanAttacker(lan.lab, 'm3');
    expect((await hosts.studio.call('POST', '/host/network/create', { name: 'Office', model: model.name })).status).toBe(200);
    const hosting = await hosts.studio.until((s) => s.network?.join_code !== null && s.network?.status === 'active', 20_000, 'the network');
    networkId = hosting.network!.id;
    studioCertificate = hosting.network!.certificate_sha256!;
    code = hosting.network!.join_code!.code;
  }, 300_000);

  afterAll(async () => {
    await attacker?.close().catch(() => undefined);
    await lan?.close();
  }, 60_000);

  it('lists the host’s announcement as verified before any join, and the attacker’s copy apart, unverified', async () => {
    // The laptop never joined: what vouches for the studio is the certificate its signed document names.
    await hosts.laptop.until((s) => announcements(s).some((n) => n.verified), 20_000, 'the network discovered, verified');
    const spoof = await attacker.spoof();
    expect(spoof.network.id).toBe(networkId);
    const seen = await hosts.laptop.until((s) => announcements(s).length === 2, 10_000, 'both announcements');
    expect(announcements(seen).map((n) => [n.address, n.certificate_sha256, n.verified])).toEqual([
      [hosts.studio.address, studioCertificate, true],
      [attacker.address, attacker.fingerprint, false],
    ]);
  });

  it('refuses a join with the attacker before anything reaches it, from the list or by its address', async () => {
    // The person picks the copy from the list, or types the attacker's address: either way with the right code.
    const fromList = await hosts.laptop.call('POST', '/host/network/join', {
      network_id: networkId,
      certificate_sha256: attacker.fingerprint,
      code,
    });
    const byAddress = await hosts.laptop.call('POST', '/host/network/join', { address: `${attacker.address}:8433`, code });
    const captured = await attacker.captured();
    // Nothing checkable against the code reached it, even with the right code, nor the member's signed document.
    expect(confirmsOffline(captured, code, networkId)).toBe(false);
    expect(captured.some((f) => 'entitlements' in f || 'proof' in f)).toBe(false);
    expect(captured).toEqual([]);
    for (const joined of [fromList, byAddress])
      expect(joined).toMatchObject({ status: 400, body: { message: expect.stringMatching(/Meshwork names another certificate for it/) } });
    expect((await hosts.laptop.state()).network).toBeNull();
  });

  it('joins from the list the verified entry, the real host, and pins it', async () => {
    // The network chosen, no certificate, with the copy still listed: the verified entry is the one joined.
    await hosts.laptop.until((s) => announcements(s).length === 2, 10_000, 'the host and the copy listed');
    const joined = await hosts.laptop.call('POST', '/host/network/join', { network_id: networkId, code });
    expect(joined.status).toBe(200);
    const client = await hosts.laptop.until((s) => s.network?.connected === true, 10_000, 'connected to the studio');
    expect(client.network!.certificate_sha256).toBe(studioCertificate);
  });

  it('refuses the member’s signed document replayed in a hello over another certificate', async () => {
    const laptop = await hosts.laptop.state();
    const deviceId = laptop.account.status === 'signed-in' ? laptop.account.device_id : '';
    const answers = await attacker.hello(studioAt(), deviceId, (await hosts.laptop.token())!);
    expect(answers).toEqual([{ type: 'refused', reason: { code: 'not_a_member' } }]);
    const studio = await hosts.studio.state();
    expect(studio.network!.members.filter((m) => m.online).map((m) => m.name)).toEqual(['Studio', 'Laptop']);
  });

  it('takes a few live guesses per code at the host, then voids the code even for the right one', async () => {
    const tablet = await hosts.tablet.state();
    const deviceId = tablet.account.status === 'signed-in' ? tablet.account.device_id : '';
    for (let run = 0; run < JOIN_RUNS_PER_CODE; run++)
      expect(await attacker.guess(studioAt(), `BBBB-CCC${'DFGHJK'[run]}`, deviceId)).toEqual([{ type: 'exchange' }]);
    await hosts.studio.until((s) => s.network?.join_code === null, 10_000, 'the code void');
    expect(await attacker.guess(studioAt(), code, deviceId)).toEqual([{ type: 'refused', reason: { code: 'code_overused' } }]);
  });

  it('keeps a flood of forged announcements capped, and the host’s listed', async () => {
    await hosts.tablet.until((s) => announcements(s).length > 0, 10_000, 'the network listed');
    const flood = attacker.flood(3000);
    let most = 0;
    let hostAlwaysListed = true;
    while (!(await Promise.race([flood.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))]))) {
      const state = await hosts.tablet.state();
      most = Math.max(most, state.discovered.length);
      hostAlwaysListed &&= announcements(state).some((n) => n.certificate_sha256 === studioCertificate);
    }
    expect(await flood).toEqual({ sent: 3000 });
    const after = await hosts.tablet.state();
    expect(Math.max(most, after.discovered.length)).toBeLessThanOrEqual(UNVERIFIED_CAP);
    expect(hostAlwaysListed).toBe(true);
    expect(announcements(after).some((n) => n.certificate_sha256 === studioCertificate)).toBe(true);
  }, 60_000);
});
